package tablebase

import (
	"context"
	"testing"

	"github.com/urim-rl/urim/env"
)

// tiny is a custom ruleset small enough to solve whole, with a capacity
// low enough that full pits are skipped and feeding has to look past them.
var tiny = env.Rules{Name: "tiny", PitsPerRow: 3, SeedsPerPit: 2, Capacity: 3,
	Trigger: []int{2, 3}, Chain: []int{2, 3, 4}, GrandSlam: env.GrandSlamNoCapture}

// storesFor lists the mover's stores to check for a board of n seeds: one
// without the majority ending, every ongoing one with it.
func storesFor(g *env.Game, n int) []int {
	r := g.Rules()
	if !r.EndOnMajority {
		return []int{g.Total() - n}
	}
	var out []int
	for s := r.Total()/2 - n; s <= r.Total()/2; s++ {
		if n > 0 {
			out = append(out, s)
		}
	}
	return out
}

// TestStrategiesProveBounds solves each ruleset to K and checks every
// position, both players to move, by playing the table's strategies
// through env against every reply: the mover following the table ends with
// at least the lower bound whatever the opponent does, and the opponent
// following the table holds the mover to at most the upper bound. So the
// value with a fresh history lies within the bounds, and is the stored one
// where they meet.
func TestStrategiesProveBounds(t *testing.T) {
	cases := []struct {
		rules env.Rules
		k     int
	}{{env.Urim, 8}, {env.Oware, 5}, {env.Urim7, 5}, {tiny, 7}}
	for _, c := range cases {
		k := c.k
		if testing.Short() {
			k = min(k, 5)
		}
		t.Run(c.rules.Name, func(t *testing.T) {
			g := env.MustGame(c.rules)
			tb, _, err := Build(context.Background(), c.rules, k, Options{})
			if err != nil {
				t.Fatal(err)
			}
			v := &verifier{t: t, tb: tb, memo: map[vkey]int{}}
			checked, exact := 0, 0
			eachPosition(t, g, tb, k, func(s *env.State, e Entry) {
				mover := s.ToMove()
				own, _ := v.guaranteed(s, mover)
				opp, _ := v.guaranteed(s, 1-mover)
				lo := own - s.Store(mover)
				hi := e.Seeds - (opp - s.Store(1-mover))
				if lo < e.Lower || hi > e.Upper {
					t.Fatalf("%s: the strategies prove [%d, %d], the table claims [%d, %d]", s.String(), lo, hi, e.Lower, e.Upper)
				}
				checked++
				if e.Exact() {
					exact++
				}
			})
			t.Logf("%s K=%d: %d positions, %d exact", c.rules.Name, k, checked, exact)
		})
	}
}

// TestAgainstExhaustive compares the table with the exhaustive search that
// walks every line through env (so every repetition is the engine's) on
// every position of the layers small enough for it.
func TestAgainstExhaustive(t *testing.T) {
	cases := []struct {
		rules env.Rules
		k     int
	}{{env.Urim, 3}, {env.Oware, 2}, {tiny, 4}}
	for _, c := range cases {
		if testing.Short() {
			c.k = min(c.k, 2)
		}
		t.Run(c.rules.Name, func(t *testing.T) {
			g := env.MustGame(c.rules)
			tb, _, err := Build(context.Background(), c.rules, c.k, Options{})
			if err != nil {
				t.Fatal(err)
			}
			o := &oracle{memo: map[posKey]int{}}
			checked, exact := 0, 0
			eachPosition(t, g, tb, c.k, func(s *env.State, e Entry) {
				v := o.within(s, e.Lower, e.Upper)
				if v < e.Lower || v > e.Upper {
					t.Fatalf("%s: the search gives %d, outside the table's bounds [%d, %d]", s.String(), v, e.Lower, e.Upper)
				}
				checked++
				if e.Exact() {
					exact++
				}
			})
			t.Logf("%s K=%d: %d positions, %d exact, %d search nodes", c.rules.Name, c.k, checked, exact, o.nodes)
		})
	}
}

// eachPosition calls f with every valid position of the table, both
// players to move (every ongoing store under the majority ending), with a
// fresh history, and its entry.
func eachPosition(t *testing.T, g *env.Game, tb *Table, k int, f func(*env.State, Entry)) {
	x := newIndex(g.Pits(), k)
	for n := 0; n <= k; n++ {
		var b [16]uint8
		x.unrank(0, n, &b)
		for more := true; more; more = x.next(&b) {
			if !tb.r.valid(&b) {
				continue
			}
			for _, store := range storesFor(g, n) {
				for mover := 0; mover < 2; mover++ {
					s := position(t, g, &b, mover, store)
					e, err := tb.Probe(&s)
					if err != nil {
						t.Fatalf("%s: %v", s.String(), err)
					}
					f(&s, e)
				}
			}
		}
	}
}
