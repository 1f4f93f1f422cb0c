// Package progress reports the progress of urim's long jobs (a tournament,
// a benchmark, self-play, training) on standard error, the same way in
// every command: a bar on a terminal, a plain line now and then otherwise
// (a log, a pipe, CI), nothing with --quiet. [To] picks the form; [Sink.Bar]
// and [Sink.Func] report one job.
//
// The rate and the time left count only the items done since the job's
// first report (a resumed job's earlier items are not this session's
// speed) and are shown once a second of it has passed, so the first frame
// never shows a rate measured over microseconds.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// LineEvery is the interval between plain progress lines.
const LineEvery = 15 * time.Second

// rateAfter is how long a job runs before its rate is shown.
const rateAfter = time.Second

// Sink is where a command's progress goes. The zero Sink reports nothing.
type Sink struct {
	w         io.Writer
	bars      bool
	transient bool
}

// To returns the sink of a command that reports on w (its standard error):
// bars when w is a terminal, plain lines otherwise, nothing when quiet or
// when w is nil.
func To(w io.Writer, quiet bool) Sink {
	if quiet || w == nil {
		return Sink{}
	}
	f, ok := w.(*os.File)
	return Sink{w: w, bars: ok && term.IsTerminal(int(f.Fd()))}
}

// Bars returns a sink that draws bars on w whatever w is (a terminal the
// caller has checked itself).
func Bars(w io.Writer) Sink { return Sink{w: w, bars: w != nil} }

// Lines returns a sink that writes plain lines on w.
func Lines(w io.Writer) Sink { return Sink{w: w} }

// Transient returns the sink with bars that erase themselves when they
// finish, so that a job of many short steps (a training run's iterations,
// which log a line each) leaves no finished bar behind. Plain lines are
// unchanged.
func (s Sink) Transient() Sink {
	s.transient = true
	return s
}

// Plain returns the sink writing plain lines instead of bars, for jobs
// reported side by side (bars would draw over each other).
func (s Sink) Plain() Sink {
	s.bars = false
	return s
}

// Enabled reports whether the sink reports anything.
func (s Sink) Enabled() bool { return s.w != nil }

// Bar starts reporting a job of total items (named items: "games"),
// labelled desc. It is safe for concurrent use.
func (s Sink) Bar(total int, desc, items string) *Bar {
	b := &Bar{sink: s, desc: desc, items: items, total: int64(total), left: -1, now: time.Now}
	if s.bars {
		opts := []progressbar.Option{
			progressbar.OptionSetWriter(s.w),
			progressbar.OptionSetWidth(30),
			progressbar.OptionSetPredictTime(false),
			progressbar.OptionShowDescriptionAtLineEnd(),
			progressbar.OptionThrottle(100 * time.Millisecond),
			progressbar.OptionSetDescription(desc),
		}
		if s.transient {
			opts = append(opts, progressbar.OptionClearOnFinish())
		} else {
			opts = append(opts, progressbar.OptionOnCompletion(func() { _, _ = io.WriteString(s.w, "\n") }))
		}
		b.pb = progressbar.NewOptions64(max(int64(total), 1), opts...)
	}
	return b
}

// Func returns a callback func(done, total int) that reports a job: it
// starts on the first call, when the total is known, and finishes when
// done reaches total.
func (s Sink) Func(desc, items string) func(done, total int) {
	var (
		once sync.Once
		b    *Bar
	)
	return func(done, total int) {
		once.Do(func() { b = s.Bar(total, desc, items) })
		b.Set(done)
		if done >= total {
			b.Finish()
		}
	}
}

// Bar reports one job. Its methods do nothing once it is finished.
type Bar struct {
	sink         Sink
	pb           *progressbar.ProgressBar
	now          func() time.Time
	mu           sync.Mutex
	desc, items  string
	total, done  int64
	left         int64     // the items expected still (Expect), or -1: total-done
	atMost       bool      // total is a maximum (Expect was called)
	base         int64     // done at the first report
	start, shown time.Time // the first report; the last plain line
	started, end bool
}

// Set reports done items.
func (b *Bar) Set(done int) { b.Set64(int64(done)) }

// Add reports n more items.
func (b *Bar) Add(n int) {
	b.mu.Lock()
	done := b.done + int64(n)
	b.mu.Unlock()
	b.Set64(done)
}

// Set64 reports done items.
func (b *Bar) Set64(done int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.end || !b.sink.Enabled() {
		b.done = done
		return
	}
	now := b.now()
	if !b.started {
		b.started, b.base, b.start, b.shown = true, done, now, now
	}
	b.done = done
	if b.pb != nil {
		b.pb.Describe(b.detail(now))
		_ = b.pb.Set64(min(done, b.pb.GetMax64()))
		return
	}
	if now.Sub(b.shown) >= LineEvery && done < b.total {
		b.shown = now
		fmt.Fprintf(b.sink.w, "%s\n", b.detail(now))
	}
}

// Expect says how many more items the job is expected to take, for a job
// whose total is only a maximum (a sequential test, which stops once it
// decides): the time left is computed from left, not from the total, and
// the total is shown as a maximum. A negative left means not known yet: no
// time left is shown.
func (b *Bar) Expect(left int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.left, b.atMost = int64(left), true
	if left < 0 {
		b.left = -2 // unknown, not "total minus done"
	}
}

// Describe changes the job's label.
func (b *Bar) Describe(desc string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.desc = desc
	if b.pb != nil && !b.end && !b.pb.IsFinished() {
		b.pb.Describe(b.detail(b.now()))
	}
}

// Finish ends the job: a bar is drawn full and its line ended.
func (b *Bar) Finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.end {
		return
	}
	b.end = true
	if b.pb != nil && !b.pb.IsFinished() { // reaching the total finished it already
		b.pb.Describe(b.detail(b.now()))
		_ = b.pb.Finish()
	}
}

// Exit ends the job where it is (an interrupt): a bar's line is ended
// without drawing it full.
func (b *Bar) Exit() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.end {
		return
	}
	b.end = true
	if b.pb != nil && !b.pb.IsFinished() {
		_ = b.pb.Exit()
		_, _ = io.WriteString(b.sink.w, "\n")
	}
}

// detail is the job's text: "selfplay: 90/200 games, 12 games/s, 9s left",
// or "sprt: 112 games (at most 20000), 5.1 games/s, 20s left" after Expect
// (no rate in the first second, none when nothing was done since).
func (b *Bar) detail(now time.Time) string {
	var s strings.Builder
	if b.atMost {
		fmt.Fprintf(&s, "%s: %d %s (at most %d)", b.desc, b.done, b.items, b.total)
	} else {
		fmt.Fprintf(&s, "%s: %d/%d %s", b.desc, b.done, b.total, b.items)
	}
	if r, ok := b.rate(now); ok {
		fmt.Fprintf(&s, ", %s", formatRate(r, b.items))
		left := b.total - b.done
		if b.left != -1 {
			left = min(b.left, left)
		}
		if left > 0 {
			fmt.Fprintf(&s, ", %s left", roundDuration(time.Duration(float64(left)/r*float64(time.Second))))
		}
	} else if el := now.Sub(b.start); b.started && el >= LineEvery {
		fmt.Fprintf(&s, " (%s)", roundDuration(el))
	}
	return s.String()
}

// rate is the items per second since the first report, once rateAfter
// has passed and an item was done.
func (b *Bar) rate(now time.Time) (float64, bool) {
	el := now.Sub(b.start)
	n := b.done - b.base
	if el < rateAfter || n <= 0 {
		return 0, false
	}
	return float64(n) / el.Seconds(), true
}

func formatRate(r float64, items string) string {
	switch {
	case r >= 10:
		return fmt.Sprintf("%.0f %s/s", r, items)
	case r >= 1:
		return fmt.Sprintf("%.1f %s/s", r, items)
	case r*60 >= 1:
		return fmt.Sprintf("%.1f %s/min", r*60, items)
	}
	return fmt.Sprintf("%.1f %s/h", r*3600, items)
}

func roundDuration(d time.Duration) time.Duration {
	if d >= time.Minute {
		return d.Round(time.Second)
	}
	return d.Round(100 * time.Millisecond)
}

// Count writes n and its unit, singular for one: "1 shard", "3 shards".
// unit is the plural; a singular is the plural without its final s.
func Count(n int, unit string) string {
	if n == 1 || n == -1 {
		unit = strings.TrimSuffix(unit, "s")
	}
	return fmt.Sprintf("%d %s", n, unit)
}
