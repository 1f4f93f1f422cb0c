package tablebase

import (
	"context"
	"testing"

	"github.com/urim-rl/urim/env"
)

// TestSecondMovesThatCycle holds positions where a second move beside the
// table's keeps the exact value by the child's fresh-history bounds, but
// loses seeds in the real game: the opponent can steer back into the
// position just left and end the game by repetition. The first is issue
// 24's example; the others are among those TestBestKeepsValue finds up to
// 5 seeds. The table must not call such a move best, and the exact search
// (decider) must confirm that it loses.
func TestSecondMovesThatCycle(t *testing.T) {
	tb, _, err := Build(context.Background(), env.Urim, 5, Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := env.MustGame(env.Urim)
	d := newDecider(tb, g, 5)
	for _, c := range []struct {
		pos        string
		best, move int // the table's move, the move that loses
	}{
		{"0,0,0,0,0,1/0,0,1,0,1,0 17-16 N 0", 2, 4}, // issue 24
		{"0,0,1,0,1,0/0,0,0,0,0,1 33-0 S 0", 2, 4},  // the same, mirrored
		{"0,0,0,0,0,1/0,1,0,0,0,1 0-33 N 0", -1, 5},
		{"1,0,0,0,0,1/0,0,0,0,1,0 33-0 S 0", -1, 5},
		{"0,0,0,1,0,1/0,0,0,1,0,2 31-0 S 0", -1, 5},
	} {
		s, err := g.ParsePosition(c.pos)
		if err != nil {
			t.Fatal(err)
		}
		e, _ := tb.Probe(&s)
		moves, err := tb.Moves(&s)
		if err != nil {
			t.Fatal(err)
		}
		var m Move
		for _, mm := range moves {
			if mm.Action == c.move {
				m = mm
			}
		}
		if !e.Exact() || m.TableLower != e.Lower || m.TableUpper != e.Lower || m.Captured > 0 {
			t.Fatalf("%s: entry %+v, move %+v: want an exact position and a quiet move that keeps it with a fresh history", c.pos, e, m)
		}
		if m.Status.Keeps() || m.Lower >= e.Lower {
			t.Errorf("%s: action %d is %s with bounds [%d, %d]", c.pos, c.move, m.Status, m.Lower, m.Upper)
		}
		for _, a := range Best(moves) {
			if a.Action == c.move {
				t.Errorf("%s: Best lists action %d", c.pos, c.move)
			}
		}
		if p := Pick(moves); c.best >= 0 && p.Action != c.best {
			t.Errorf("%s: the table's move is %d, want %d", c.pos, p.Action, c.best)
		}
		// The truth: the mover is sure of the move's lower bound, and not
		// of the position's.
		mover, store := s.ToMove(), s.Store(s.ToMove())
		if !d.atLeast(&s, c.move, mover, store+m.Lower) {
			t.Errorf("%s: the search says action %d does not make sure of its lower bound %d", c.pos, c.move, m.Lower)
		}
		if d.atLeast(&s, c.move, mover, store+e.Lower) {
			t.Errorf("%s: the search says action %d keeps %d", c.pos, c.move, e.Lower)
		}
	}
}

// TestStatusText: every status has a name that reads back, and an unknown
// name is an error.
func TestStatusText(t *testing.T) {
	for s := StatusUnknown; s <= StatusWorse; s++ {
		b, err := s.MarshalText()
		var back Status
		if err != nil || back.UnmarshalText(b) != nil || back != s || s.String() != string(b) {
			t.Errorf("status %d: %q, %v, read back as %v", s, b, err, back)
		}
	}
	var s Status
	if err := s.UnmarshalText([]byte("great")); err == nil {
		t.Error("status \"great\" read without an error")
	}
	if _, err := Status(9).MarshalText(); err == nil {
		t.Error("status 9 written without an error")
	}
}
