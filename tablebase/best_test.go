package tablebase

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/urim-rl/urim/env"
)

var bestSeeds = flag.Int("tb.best-seeds", 4, "TestBestKeepsValue checks every position with up to this many seeds (5 takes minutes)")

// TestBestKeepsValue checks, on every position of urim with up to
// -tb.best-seeds seeds (both players to move, fresh history), every move
// that keeps the position's lower bound by its fresh-history figures and
// is not the table's move (TestStrategiesProveBounds proves that one):
// against bounds solved through env with the position in the child's
// history (moveBounds) and, where those cannot tell, the exhaustive search
// (keepsExactly), no move the table calls best or keeps-bound loses value,
// none it calls worse keeps it, and every move's bounds hold the truth.
func TestBestKeepsValue(t *testing.T) {
	k := *bestSeeds
	if testing.Short() {
		k = min(k, 3)
	}
	g := env.MustGame(env.Urim)
	tb, _, err := Build(context.Background(), env.Urim, k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := &oracle{memo: map[posKey]int{}, budget: 1 << 20}
	counts := map[string]int{}
	var losing []string
	eachPosition(t, g, tb, k, func(s *env.State, e Entry) {
		if s.Terminal() {
			return
		}
		moves, err := tb.Moves(s)
		if err != nil {
			t.Fatal(err)
		}
		pick := Pick(moves).Action
		var check []int
		for i, m := range moves {
			if m.TableLower >= e.Lower {
				counts["old best, now "+m.Status.String()]++
			}
			if !m.Ends && m.Captured == 0 && m.TableLower >= e.Lower && m.Action != pick {
				check = append(check, i)
			}
		}
		if len(check) == 0 {
			return
		}
		lo, hi, ok := moveBounds(t, tb, s, 1<<22)
		if !ok {
			t.Fatalf("%s: too many positions to solve", s.String())
		}
		n := e.Seeds
		for i, m := range moves {
			if max(lo[i], m.Lower) > min(hi[i], m.Upper) {
				t.Errorf("%s: action %d: the table gives [%d, %d] with this history, the search [%d, %d]",
					s.String(), m.Action, m.Lower, m.Upper, lo[i], hi[i])
			}
		}
		for _, i := range check {
			m := moves[i]
			truth := "keeps"
			switch {
			case lo[i] >= e.Lower:
			case hi[i] < e.Lower:
				truth = "loses"
			default:
				c := *s
				c.Play(m.Action)
				keeps, decided := keepsExactly(o, &c, n, e.Lower)
				switch {
				case !decided:
					truth = "undecided"
				case !keeps:
					truth = "loses"
				}
			}
			counts[m.Status.String()+" and "+truth]++
			if m.Status.Keeps() && truth != "keeps" || m.Status == StatusWorse && truth == "keeps" {
				t.Errorf("%s: action %d is %s by the table, but %s the lower bound %d in the real game", s.String(), m.Action, m.Status, truth, e.Lower)
			}
			if truth == "loses" {
				losing = append(losing, fmt.Sprintf("%s: action %d (%s)", s.String(), m.Action, m.Status))
			}
		}
	})
	var keys []string
	for key := range counts {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		t.Logf("%s: %d", key, counts[key])
	}
	t.Logf("%d moves the table called best before lose value in the real game; the first:", len(losing))
	for _, l := range losing[:min(len(losing), 8)] {
		t.Log(l)
	}
}

var labelSeeds = flag.Int("tb.label-seeds", 5, "TestLabelChanges counts the labels of every position with up to this many seeds")

// TestLabelChanges counts, on every position of urim with up to
// -tb.label-seeds seeds, how the moves that keep the lower bound by their
// fresh-history figures (all called best before) are labelled now; every
// position keeps its bounds, and its table's move keeps them.
func TestLabelChanges(t *testing.T) {
	k := *labelSeeds
	g := env.MustGame(env.Urim)
	tb, _, err := Build(context.Background(), env.Urim, k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	eachPosition(t, g, tb, k, func(s *env.State, e Entry) {
		if s.Terminal() {
			return
		}
		moves, err := tb.Moves(s)
		if err != nil {
			t.Fatal(err)
		}
		if lo, hi := Bounds(moves); lo != e.Lower || hi != e.Upper {
			t.Fatalf("%s: the moves give [%d, %d], the entry [%d, %d]", s.String(), lo, hi, e.Lower, e.Upper)
		}
		if p := Pick(moves); !p.Status.Keeps() {
			t.Fatalf("%s: the table's move %d is %s", s.String(), p.Action, p.Status)
		}
		if p, _, err := tb.Pick(s); err != nil || p.Action != Pick(moves).Action {
			t.Fatalf("%s: Table.Pick gives %d (%v), Pick of the moves %d", s.String(), p.Action, err, Pick(moves).Action)
		}
		kind := "inexact"
		if e.Exact() {
			kind = "exact"
		}
		for _, m := range moves {
			if m.TableLower >= e.Lower {
				counts[kind+" position: "+m.Status.String()]++
			}
		}
	})
	var keys []string
	for key := range counts {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		t.Logf("K=%d, moves called best before, %s: %d", k, key, counts[key])
	}
}

// TestBestKeepsValueWithHistory checks the labels, as TestBestKeepsValue
// does, on positions reached by a few random moves without a capture from
// random positions of up to 5 seeds, whose runs hold several positions.
func TestBestKeepsValueWithHistory(t *testing.T) {
	k, positions := 5, 50
	if testing.Short() {
		positions = 15
	}
	g := env.MustGame(env.Urim)
	tb, _, err := Build(context.Background(), env.Urim, k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := &oracle{memo: map[posKey]int{}, budget: 1 << 18}
	rng := rand.New(rand.NewPCG(24, 1))
	checked := map[string]int{}
	for done := 0; done < positions; {
		s, err := tb.Sample(g, 2+rng.IntN(k-1), rng)
		if err != nil {
			t.Fatal(err)
		}
		for i := rng.IntN(8); i > 0 && !s.Terminal(); i-- {
			c := s
			c.Play(s.Legal().Nth(rng.IntN(s.Legal().Count())))
			if c.Store(0) != s.Store(0) || c.Store(1) != s.Store(1) {
				break
			}
			s = c
		}
		if s.Terminal() || s.Quiet() == 0 {
			continue
		}
		done++
		moves, err := tb.Moves(&s)
		if err != nil {
			t.Fatal(err)
		}
		lower, _ := Bounds(moves)
		if p, _, err := tb.Pick(&s); err != nil || p.Action != Pick(moves).Action {
			t.Fatalf("%s: Table.Pick gives %d (%v), Pick of the moves %d", s.String(), p.Action, err, Pick(moves).Action)
		}
		lo, hi, ok := moveBounds(t, tb, &s, 1<<20)
		if !ok {
			t.Fatalf("%s: too many positions to solve", s.String())
		}
		for i, m := range moves {
			if max(lo[i], m.Lower) > min(hi[i], m.Upper) {
				t.Errorf("%s: action %d: the table gives [%d, %d] with this history, the search [%d, %d]",
					s.String(), m.Action, m.Lower, m.Upper, lo[i], hi[i])
			}
			truth := "keeps"
			switch {
			case lo[i] >= lower:
			case hi[i] < lower:
				truth = "loses"
			default:
				c := s
				c.Play(m.Action)
				keeps, decided := keepsExactly(o, &c, boardSeeds(&s), lower)
				switch {
				case m.Captured > 0 || m.Ends || !decided:
					truth = "undecided"
				case !keeps:
					truth = "loses"
				}
			}
			checked[m.Status.String()+" and "+truth]++
			if m.Status.Keeps() && truth != "keeps" || m.Status == StatusWorse && truth == "keeps" {
				t.Errorf("%s: action %d is %s by the table, but %s the lower bound %d in the real game", s.String(), m.Action, m.Status, truth, lower)
			}
		}
	}
	t.Logf("%v", checked)
}
