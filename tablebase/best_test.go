package tablebase

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/urim-rl/urim/env"
)

var bestSeeds = flag.Int("tb.best-seeds", 5, "TestBestKeepsValue checks every position with up to this many seeds (CPU time over both workers on the project's 2-core machine: 5 seeds 2 s, 6 seeds 14 s, 7 seeds 70 s, checking 19,980, 70,296 and 215,110 moves; docs/tablebase.md)")

// TestBestKeepsValue checks, on every position of urim with up to
// -tb.best-seeds seeds (both players to move, fresh history), every legal
// move against the exact search of decider (through env, with the position
// in the child's history): the mover makes sure of the move's lower bound
// and gets no more than its upper bound, so no move the table calls best or
// keeps-bound loses value and none it calls worse keeps it. Each move the
// probe called best before (it keeps the lower bound by its fresh-history
// figures) is counted by its status and by whether it keeps the value in
// the real game. The positions are checked by GOMAXPROCS workers.
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
	var jobs []env.State
	eachPosition(t, g, tb, k, func(s *env.State, e Entry) {
		if !s.Terminal() {
			jobs = append(jobs, *s)
		}
	})
	d0 := newDecider(tb, g, k)
	tallies := make([]truthTally, runtime.GOMAXPROCS(0))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range tallies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &tallies[w]
			r.counts = map[string]int{}
			d := d0.fork()
			for i := int(next.Add(1)) - 1; i < len(jobs); i = int(next.Add(1)) - 1 {
				r.check(tb, d, &jobs[i])
			}
			r.nodes, r.rebuilt = d.nodes, d.rebuilt
		}()
	}
	wg.Wait()
	all := truthTally{counts: map[string]int{}}
	for _, r := range tallies {
		all.moves += r.moves
		all.nodes += r.nodes
		all.rebuilt += r.rebuilt
		for key, v := range r.counts {
			all.counts[key] += v
		}
		all.errs = append(all.errs, r.errs...)
		all.losing = append(all.losing, r.losing...)
	}
	sort.Strings(all.errs)
	sort.Strings(all.losing)
	for _, e := range all.errs[:min(len(all.errs), 20)] {
		t.Error(e)
	}
	if len(all.errs) > 20 {
		t.Errorf("... and %d more", len(all.errs)-20)
	}
	var keys []string
	for key := range all.counts {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	t.Logf("K=%d: %d positions, %d moves checked by %d workers, %d positions searched, %d winning ranks built again for a history", k, len(jobs), all.moves, len(tallies), all.nodes, all.rebuilt)
	for _, key := range keys {
		t.Logf("moves called best before, %s: %d", key, all.counts[key])
	}
	t.Logf("%d moves the table called best before lose value in the real game; the first:", len(all.losing))
	for _, l := range all.losing[:min(len(all.losing), 8)] {
		t.Log(l)
	}
}

var openBudget = flag.Int("tb.open-budget", 64, "TestBestKeepsValue expands at most this many positions to tell whether a may-cycle move keeps the value (the table claims only its bounds, which are checked in full)")

// truthTally is what one worker of TestBestKeepsValue found.
type truthTally struct {
	moves, nodes, rebuilt int
	counts                map[string]int // moves called best before, by status and truth
	errs, losing          []string
}

// check checks every move of s (ongoing, with its history) against d: the
// mover is sure of the move's lower bound and cannot get more than its
// upper bound. Each move that keeps the position's lower bound by its
// fresh-history figures (called best before) is counted by its status and
// whether it keeps that bound in the real game.
func (r *truthTally) check(tb *Table, d *decider, s *env.State) {
	moves, err := tb.Moves(s)
	if err != nil {
		r.errs = append(r.errs, fmt.Sprintf("%s: %v", s.String(), err))
		return
	}
	var e Entry
	e.Seeds = boardSeeds(s)
	e.Lower, e.Upper = Bounds(moves)
	mover, store := s.ToMove(), s.Store(s.ToMove())
	for _, m := range moves {
		r.moves++
		if !d.atLeast(s, m.Action, mover, store+m.Lower) {
			r.errs = append(r.errs, fmt.Sprintf("%s: action %d (%s) does not make sure of its lower bound %d", s.String(), m.Action, m.Status, m.Lower))
		}
		if m.Upper < e.Seeds && d.atLeast(s, m.Action, mover, store+m.Upper+1) {
			r.errs = append(r.errs, fmt.Sprintf("%s: action %d (%s) yields more than its upper bound %d", s.String(), m.Action, m.Status, m.Upper))
		}
		if m.TableLower < e.Lower {
			continue // not called best before
		}
		// The bounds, checked above, settle whether the move keeps the value
		// unless they straddle it (a may-cycle move): then the search is
		// given a budget, as nothing the table claims rests on the answer.
		keeps, decided := m.Lower >= e.Lower, true
		if !keeps && m.Upper >= e.Lower {
			keeps, decided = d.budgeted(*openBudget, func() bool { return d.atLeast(s, m.Action, mover, store+e.Lower) })
		}
		truth := "keeps"
		switch {
		case !decided:
			truth = "undecided"
		case !keeps:
			truth = "loses"
			r.losing = append(r.losing, fmt.Sprintf("%s: action %d (%s)", s.String(), m.Action, m.Status))
		}
		r.counts[m.Status.String()+" and "+truth]++
		if decided && (m.Status.Keeps() && !keeps || m.Status == StatusWorse && keeps) {
			r.errs = append(r.errs, fmt.Sprintf("%s: action %d is %s by the table, but %s the lower bound %d in the real game", s.String(), m.Action, m.Status, truth, e.Lower))
		}
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

// TestBestKeepsValueWithHistory checks every move's bounds and labels, as
// TestBestKeepsValue does, on positions reached by a few random moves without a capture from
// random positions of up to 5 seeds, whose runs hold several positions.
func TestBestKeepsValueWithHistory(t *testing.T) {
	k, positions := 5, 400
	if testing.Short() {
		positions = 50
	}
	g := env.MustGame(env.Urim)
	tb, _, err := Build(context.Background(), env.Urim, k, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := newDecider(tb, g, k)
	r := truthTally{counts: map[string]int{}}
	rng := rand.New(rand.NewPCG(24, 1))
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
		if p, _, err := tb.Pick(&s); err != nil || p.Action != Pick(moves).Action {
			t.Fatalf("%s: Table.Pick gives %d (%v), Pick of the moves %d", s.String(), p.Action, err, Pick(moves).Action)
		}
		r.check(tb, d, &s)
	}
	for _, e := range r.errs {
		t.Error(e)
	}
	t.Logf("%d moves checked, %d positions searched; moves called best before, by status and truth: %v", r.moves, d.nodes, r.counts)
}
