package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// clock is a fake time source for a Bar.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func withClock(b *Bar, c *clock) *Bar    { b.now = c.now; return b }
func newClock() *clock                   { return &clock{t: time.Unix(1e9, 0)} }
func lastFrame(out string) string {
	frames := strings.Split(out, "\r")
	return frames[len(frames)-1]
}

// TestFirstFrameShowsNoRate: a job resumed with 150 of 200 games done
// draws its first frame without a rate (150 games over microseconds), and
// later counts only this session's games.
func TestFirstFrameShowsNoRate(t *testing.T) {
	var out bytes.Buffer
	c := newClock()
	b := withClock(Bars(&out).Bar(200, "selfplay", "games"), c)
	b.Set(150)
	if f := b.detail(c.now()); f != "selfplay: 150/200 games" {
		t.Errorf("first frame %q, want no rate", f)
	}
	if strings.Contains(out.String(), "/s") {
		t.Errorf("first frame drawn with a rate: %q", out.String())
	}
	c.advance(500 * time.Millisecond)
	b.Set(155)
	if f := b.detail(c.now()); strings.Contains(f, "/s") {
		t.Errorf("a rate after half a second: %q", f)
	}
	c.advance(1500 * time.Millisecond)
	b.Set(170)
	if f, want := b.detail(c.now()), "selfplay: 170/200 games, 10 games/s, 3s left"; f != want {
		t.Errorf("after 2s and 20 games: %q, want %q", f, want)
	}
	b.Finish()
	if !strings.HasSuffix(out.String(), "\n") {
		t.Errorf("a finished bar does not end its line: %q", out.String())
	}
}

// TestPlainLinesOffATerminal: a writer that is not a terminal gets a plain
// line every LineEvery, without a bar's carriage returns; --quiet gets
// nothing.
func TestPlainLinesOffATerminal(t *testing.T) {
	var out bytes.Buffer
	c := newClock()
	s := To(&out, false)
	if s.bars || !s.Enabled() {
		t.Fatalf("a buffer is not a terminal: want plain lines, got %+v", s)
	}
	b := withClock(s.Bar(100, "tournament", "games"), c)
	for i := 0; i < 100; i++ {
		c.advance(time.Second)
		b.Set(i + 1)
	}
	b.Finish()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	// 100 s of play from the first report: a line every 15 s (six).
	if len(lines) != 6 || strings.Contains(out.String(), "\r") {
		t.Fatalf("plain lines %q, want 6 without carriage returns", out.String())
	}
	if want := "tournament: 16/100 games, 1.0 games/s, 1m24s left"; lines[0] != want {
		t.Errorf("first line %q, want %q", lines[0], want)
	}
	out.Reset()
	q := To(&out, true)
	qb := q.Bar(10, "x", "games")
	qb.Set(5)
	qb.Describe("y")
	qb.Finish()
	q.Func("x", "games")(3, 3)
	if out.Len() != 0 || q.Enabled() {
		t.Errorf("quiet wrote %q", out.String())
	}
	var zero Sink
	zero.Func("x", "games")(1, 2) // the zero Sink reports nothing, without panicking
}

// TestBarDrawsOnATerminal: a bar frame holds the bar and the detail.
func TestBarDrawsOnATerminal(t *testing.T) {
	var out bytes.Buffer
	f := Bars(&out).Func("verify", "shards")
	f(0, 4)
	f(4, 4)
	if got := lastFrame(out.String()); !strings.Contains(got, "100%") || !strings.Contains(got, "verify: 4/4 shards") {
		t.Errorf("last frame %q", got)
	}
	// The finished bar ends its line, and nothing is drawn after it (the
	// command's output follows on a line of its own).
	if !strings.HasSuffix(out.String(), "\n") {
		t.Errorf("the finished bar's line is not ended: %q", out.String())
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		unit string
		want string
	}{{1, "shards", "1 shard"}, {0, "shards", "0 shards"}, {2, "games", "2 games"}, {1, "positions", "1 position"}} {
		if got := Count(c.n, c.unit); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.unit, got, c.want)
		}
	}
}

// TestTransientBarsLeaveNothing: a transient sink's finished bar erases its
// line (no newline), so a run's many short bars leave none behind.
func TestTransientBarsLeaveNothing(t *testing.T) {
	var out bytes.Buffer
	b := Bars(&out).Transient().Bar(10, "iter 1/3 self-play", "games")
	b.Set(10)
	b.Finish()
	if strings.Contains(out.String(), "\n") {
		t.Errorf("a transient bar left a line: %q", out.String())
	}
	if f := lastFrame(out.String()); strings.TrimSpace(f) != "" && !strings.HasPrefix(f, "\x1b") {
		t.Errorf("a transient bar is not erased: last frame %q", f)
	}
}

// TestExpectAtMost: a job whose total is a maximum (an SPRT of at most
// 20000 games) shows the maximum as such and takes its time left from what
// it expects, not from the maximum.
func TestExpectAtMost(t *testing.T) {
	var out bytes.Buffer
	c := newClock()
	b := withClock(Lines(&out).Bar(20000, "sprt", "games"), c)
	b.Set(0)
	c.advance(10 * time.Second)
	b.Set(100)
	b.Expect(50)
	if f, want := b.detail(c.now()), "sprt: 100 games (at most 20000), 10 games/s, 5s left"; f != want {
		t.Errorf("%q, want %q", f, want)
	}
	b.Expect(-1)
	if f := b.detail(c.now()); strings.Contains(f, "left") {
		t.Errorf("an unknown expectation shows a time left: %q", f)
	}
}
