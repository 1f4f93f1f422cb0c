package classic

import (
	"context"
	"math"
	"testing"

	"github.com/urim-rl/urim/env"
)

// TestPrunedPolicy: on hand-built root statistics the most visited child
// keeps its visits, a child that PUCT would not have visited as much loses
// up to its forced playouts, a child left with one visit drops to 0, and
// the target sums to 1.
func TestPrunedPolicy(t *testing.T) {
	tr := &tree{c: 1.5, nodes: []node{
		{first: 1, kids: 4, visits: 101},
		{action: 0, prior: 0.4, visits: 80, value: 80 * 0.3},
		{action: 1, prior: 0.3, visits: 12, value: 12 * -0.2},
		{action: 2, prior: 0.2, visits: 8, value: 8 * -0.5},
		{action: 3, prior: 0.1, visits: 1, value: -0.9},
	}}
	var p [env.MaxActions]float32
	if !tr.prunedPolicy(2, &p) {
		t.Fatal("no visited child")
	}
	var sum float32
	for _, x := range p {
		sum += x
	}
	if math.Abs(float64(sum-1)) > 1e-6 {
		t.Fatalf("target %v sums to %v", p, sum)
	}
	raw := func(n int32) float32 { return float32(n) / 101 }
	if p[0] <= raw(80) {
		t.Errorf("the best child's share %v did not grow from %v", p[0], raw(80))
	}
	if p[3] != 0 {
		t.Errorf("a child of one visit kept %v", p[3])
	}
	// The others lose visits, but at most their forced playouts.
	n := float32(80) / p[0] // the pruned total, from the untouched best child
	for a, c := range tr.nodes[2:4] {
		kept := p[a+1] * n
		forced := float32(math.Floor(float64(forcedCount(2, c.prior, 101))))
		if kept > float32(c.visits)+1e-3 || kept < float32(c.visits)-forced-1e-3 {
			t.Errorf("child %d kept %v of %d visits (forced playouts %v)", a+1, kept, c.visits, forced)
		}
	}
	if p[2] >= raw(8) {
		t.Errorf("child 2, far behind, kept its share %v", p[2])
	}
}

// TestForcedPlayouts: with forced playouts on, full searches give the root
// children the network rates low more visits (fewer children with a visit
// or two), their policy targets are pruned (not the visits' shares), and
// fast searches are left alone.
func TestForcedPlayouts(t *testing.T) {
	g := env.MustGame(env.Oware)
	run := func(k float64) (few int, pruned bool) {
		cfg := LockstepConfig{Games: 4, Search: MCTSConfig{Sims: 64, Batch: 2, Rule: PUCT}, ForcedK: k,
			Moves: SelfPlayPolicy{FastSims: 8, FullProb: 0.5, Temperature: 1, TempPlies: 10}}
		err := linearLockstep(t, g, cfg, 11).Play(context.Background(), 8, func(m *SelfPlayMove) error {
			sum := 0
			for _, v := range m.Search.Visits {
				sum += v
			}
			differs := false
			for a, v := range m.Search.Visits {
				if v == 1 || v == 2 {
					if m.Search.Full {
						few++
					}
				}
				if math.Abs(float64(m.Search.Policy[a])-float64(v)/float64(sum)) > 1e-6 {
					differs = true
				}
			}
			if differs && !m.Search.Full {
				t.Fatalf("a fast search's target %v is not its visits %v", m.Search.Policy, m.Search.Visits)
			}
			pruned = pruned || differs
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return few, pruned
	}
	few0, pruned0 := run(0)
	few2, pruned2 := run(2)
	if pruned0 || !pruned2 {
		t.Errorf("targets pruned without forced playouts %v, with %v", pruned0, pruned2)
	}
	if few2 >= few0 {
		t.Errorf("root children with 1–2 visits: %d with forced playouts, %d without", few2, few0)
	}
	// A full search with forced playouts, the root temperature and noise
	// allocates nothing.
	l := linearLockstep(t, g, LockstepConfig{Games: 1, Search: MCTSConfig{Sims: 32, Rule: PUCT}, ForcedK: 2, RootTemp: 1.25, NoiseFrac: 0.25}, 1)
	start := g.Start()
	jobs, out := []LockstepJob{{State: &start, Sims: 32, Noise: true, Full: true}}, make([]RootSearch, 1)
	l.Search(jobs, out)
	if allocs := testing.AllocsPerRun(5, func() { l.Search(jobs, out) }); allocs > 0 {
		t.Errorf("%v allocations per full search with forced playouts", allocs)
	}
	bad := LockstepConfig{Games: 1, Search: MCTSConfig{Sims: 8, Rule: PUCT}, ForcedK: -1}
	if _, err := NewLockstep(g, bad, nil, 1); err == nil {
		t.Error("forced playouts k −1 accepted")
	}
}
