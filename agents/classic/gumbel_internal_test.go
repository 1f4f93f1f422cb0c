package classic

import (
	"math"
	"slices"
	"testing"

	"github.com/urim-rl/urim/agents/neteval"
	"github.com/urim-rl/urim/env"
)

// TestHalvingSequence: the schedule has exactly n entries, and for small
// cases it is the paper's Sequential Halving, worked by hand: ⌈log₂ k⌉
// phases of about n / ⌈log₂ k⌉ simulations, each split evenly over the
// actions left, halving them after each phase.
func TestHalvingSequence(t *testing.T) {
	cases := []struct {
		k, n int
		want []int32
	}{
		// k = 4, n = 8: two phases of 4; 4 actions × 1 visit, then 2 × 2.
		{4, 8, []int32{0, 0, 0, 0, 1, 1, 2, 2}},
		// k = 8, n = 24: three phases of 8; 8 × 1, 4 × 2, 2 × 4.
		{8, 24, []int32{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6}},
		// k = 2, n = 5: one phase of 2 × 2, then the budget left goes on
		// to the same two actions, cut at 5.
		{2, 5, []int32{0, 0, 1, 1, 2}},
		// k = 6, n = 15 (16 simulations on the urim board): 6 × 1, then
		// 3 × ⌊15/9⌋ = 1, then 2 × ⌊15/6⌋ = 2 twice, cut at 15.
		{6, 15, []int32{0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4}},
		// Fewer simulations than actions: each visits a new action.
		{6, 3, []int32{0, 0, 0}},
		// One action: every simulation visits it.
		{1, 4, []int32{0, 1, 2, 3}},
		{6, 0, nil},
	}
	for _, c := range cases {
		if got := halvingSequence(c.k, c.n, nil); !slices.Equal(got, c.want) {
			t.Errorf("halvingSequence(%d, %d) = %v, want %v", c.k, c.n, got, c.want)
		}
	}
	for k := 1; k <= 16; k++ {
		for n := 0; n <= 300; n++ {
			if got := halvingSequence(k, n, nil); len(got) != n {
				t.Fatalf("halvingSequence(%d, %d) has %d entries", k, n, len(got))
			}
		}
	}
}

// gumbelMCTS is a Gumbel search on a linear network.
func gumbelMCTS(t testing.TB, g *env.Game, sims, batch int, gc GumbelConfig, seed uint64) *MCTS {
	t.Helper()
	cfg := MCTSConfig{Sims: sims, Rule: Gumbel, Gumbel: gc, Batch: batch,
		NewEvaluator: func(uint64) Evaluator {
			return neteval.NewFor(newLinearNet(g, env.EncodingCompact, max(batch, 1), 7), g, env.EncodingCompact, g.PitsPerRow(), max(batch, 1))
		}}
	m, err := NewMCTS(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGumbelSpendsTheBudget: a search of n simulations gives the root's
// children exactly n − 1 visits (the first evaluates the root), spread as
// the schedule says: the sorted visit counts are those the schedule hands
// out, batched or not.
func TestGumbelSpendsTheBudget(t *testing.T) {
	g := env.MustGame(env.Urim)
	s := g.Start() // 6 legal moves
	for _, sims := range []int{1, 2, 7, 9, 16, 33, 100} {
		for _, batch := range []int{1, 4} {
			for _, m := range []int{2, 4, 16} {
				a := gumbelMCTS(t, g, sims, batch, GumbelConfig{M: m, Noise: 1}, 3)
				if _, err := a.Act(&s); err != nil {
					t.Fatal(err)
				}
				tr := a.trees[0]
				checkTree(t, tr)
				var got []int32
				total := 0
				for _, v := range a.LastSearch().Visits {
					total += v
					if v > 0 {
						got = append(got, int32(v))
					}
				}
				if total != sims-1 {
					t.Fatalf("sims %d, batch %d, m %d: the root's children got %d visits, want %d", sims, batch, m, total, sims-1)
				}
				// The final visit count of each action the schedule visits.
				var want []int32
				count := map[int32]int32{}
				for _, v := range halvingSequence(min(m, 6), sims-1, nil) {
					count[v]++
				}
				// count[v] actions reach at least v+1 visits.
				for v := int32(0); count[v] > 0; v++ {
					next := count[v+1]
					for range count[v] - next {
						want = append(want, v+1)
					}
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("sims %d, batch %d, m %d: visits %v, the schedule gives %v", sims, batch, m, got, want)
				}
			}
		}
	}
}

// handTree is a root with three children: priors 0.5, 0.3, 0.2; the first
// visited twice with values summing to 1 (Q 0.5), the second once with −0.5,
// the third never; the root's own network value is 0.2 for the player to
// move.
func handTree() *tree {
	tr := newTree(&MCTSConfig{Rule: Gumbel, NewEvaluator: func(uint64) Evaluator { return uniformEvaluator{} }}, 1)
	tr.nodes = []node{
		{first: 1, kids: 3, visits: 4, value: -0.2 - (1 - 0.5)},
		{action: 0, prior: 0.5, visits: 2, value: 1},
		{action: 1, prior: 0.3, visits: 1, value: -0.5},
		{action: 2, prior: 0.2},
	}
	return tr
}

type uniformEvaluator struct{}

func (uniformEvaluator) Evaluate(s *env.State, prior []float32) float32 { return 0 }

// TestGumbelCompletedQ: σ(completed Q) and the policy target equal the
// values worked by hand.
func TestGumbelCompletedQ(t *testing.T) {
	tr := handTree()
	// v_mix = (0.2 + 3 · (0.5·0.5 + 0.3·(−0.5)) / (0.5 + 0.3)) / (1 + 3)
	//       = (0.2 + 3 · 0.125) / 4 = 0.14375.
	// Completed Q: 0.5, −0.5, 0.14375; rescaled by min −0.5 and max 0.5:
	// 1, 0, 0.64375; σ = (50 + 2) · 0.1 · q̂ = 5.2, 0, 3.3475.
	want := []float64{5.2, 0, 3.3475}
	var sig [3]float32
	tr.sigma(&tr.nodes[0], tr.nodes[1:4], sig[:])
	for i := range want {
		if math.Abs(float64(sig[i])-want[i]) > 1e-5 {
			t.Errorf("σ(q̂)[%d] = %g, want %g", i, sig[i], want[i])
		}
	}
	// Policy target softmax(log P + σ) ∝ P · e^σ.
	w := []float64{0.5 * math.Exp(5.2), 0.3, 0.2 * math.Exp(3.3475)}
	sum := w[0] + w[1] + w[2]
	var policy [env.MaxActions]float32
	a := tr.gumbelDecide(&policy)
	for i := range w {
		if math.Abs(float64(policy[i])-w[i]/sum) > 1e-6 {
			t.Errorf("policy[%d] = %g, want %g", i, policy[i], w[i]/sum)
		}
	}
	// No noise: the best of the most visited (action 0 alone).
	if a != 0 {
		t.Errorf("move %d, want 0", a)
	}
	// Interior rule: π' − N/(1 + ΣN) = π' − (2, 1, 0)/4.
	pi := []float64{w[0] / sum, w[1] / sum, w[2] / sum}
	best, score := 0, math.Inf(-1)
	for i, n := range []float64{2, 1, 0} {
		if sc := pi[i] - n/4; sc > score {
			best, score = i, sc
		}
	}
	tr.gum.seq = nil // past the schedule: the interior rule at the root too
	if got := tr.selectGumbel(0) - 1; int(got) != best {
		t.Errorf("interior selection took child %d, want %d", got, best)
	}
}

// TestGumbelTargetIsThePrior: the policy target is the prior softmax
// exactly when σ(completed Q) is the same for every legal action, that is
// when all completed Q-values are equal: with no visits at all (every
// completed Q is v_mix), or with equal visits whose Q-values are equal.
// Equal visits alone are not enough: different Q-values move the target.
func TestGumbelTargetIsThePrior(t *testing.T) {
	check := func(name string, tr *tree, wantPrior bool) {
		t.Helper()
		var policy [env.MaxActions]float32
		tr.gumbelDecide(&policy)
		same := true
		for _, c := range tr.nodes[1:4] {
			if math.Abs(float64(policy[c.action]-c.prior)) > 1e-6 {
				same = false
			}
		}
		if same != wantPrior {
			t.Errorf("%s: target %v, priors 0.5, 0.3, 0.2: want the prior %v", name, policy[:3], wantPrior)
		}
	}
	tr := handTree()
	tr.nodes[0] = node{first: 1, kids: 3, visits: 1, value: -0.7}
	for i := 1; i < 4; i++ {
		tr.nodes[i].visits, tr.nodes[i].value = 0, 0
	}
	check("no visits", tr, true)
	for i := 1; i < 4; i++ {
		tr.nodes[i].visits, tr.nodes[i].value = 3, 0.9 // Q 0.3 each
	}
	tr.nodes[0] = node{first: 1, kids: 3, visits: 10, value: -0.2 - 2.7}
	check("equal visits, equal Q", tr, true)
	tr.nodes[3].value = -0.9
	tr.nodes[0].value = -0.2 - 0.9
	check("equal visits, different Q", tr, false)
}

// TestGumbelDeterministicWithoutNoise: with no noise, two searches with
// different seeds choose the same move and targets (the tree's shuffle at
// expansion only breaks exact ties), and with noise the seed matters.
func TestGumbelNoise(t *testing.T) {
	g := env.MustGame(env.Urim)
	pos := agentPositions(g, 8)
	differ := false
	for i := range pos {
		a := gumbelMCTS(t, g, 32, 4, GumbelConfig{}, 1)
		b := gumbelMCTS(t, g, 32, 4, GumbelConfig{}, 2)
		x, _ := a.Act(&pos[i])
		y, _ := b.Act(&pos[i])
		if x != y {
			t.Errorf("position %d: no noise, seeds 1 and 2 played %d and %d", i, x, y)
		}
		c := gumbelMCTS(t, g, 32, 4, GumbelConfig{Noise: 1}, 1)
		d := gumbelMCTS(t, g, 32, 4, GumbelConfig{Noise: 1}, 2)
		c.Act(&pos[i])
		d.Act(&pos[i])
		if c.LastSearch().Visits != d.LastSearch().Visits {
			differ = true
		}
	}
	if !differ {
		t.Error("with noise, seeds 1 and 2 gave the same visits at 8 positions")
	}
}

// TestGumbelLockstep: the lock-step search's Gumbel results spend the
// budget, report the improved policy summing to 1 over legal actions, and
// play their own move at every temperature; with one game and no noise it
// plays the agent's moves.
func TestGumbelLockstep(t *testing.T) {
	g := env.MustGame(env.Urim)
	l := linearLockstep(t, g, LockstepConfig{Games: 1, Search: MCTSConfig{Sims: 24, Batch: 4, Rule: Gumbel}}, 11)
	m := gumbelMCTS(t, g, 24, 4, GumbelConfig{}, 11)
	s := g.Start()
	moves := 0
	err := l.Play(t.Context(), 1, func(mv *SelfPlayMove) error {
		a, err := m.Act(&s)
		if err != nil {
			return err
		}
		r := &mv.Search
		if !r.Gumbel || r.Action != mv.Action || a != mv.Action || m.LastSearch().Visits != r.Visits {
			t.Fatalf("ply %d: lock-step %+v played %d, the agent %d with %v", s.Ply(), r, mv.Action, a, m.LastSearch().Visits)
		}
		total, sum := 0, float32(0)
		for act, v := range r.Visits {
			total += v
			sum += r.Policy[act]
			if r.Policy[act] > 0 && !s.Legal().Has(act) {
				t.Fatalf("policy on illegal action %d", act)
			}
		}
		if total != 23 || math.Abs(float64(sum)-1) > 1e-5 {
			t.Fatalf("ply %d: %d visits (want 23), policy sums to %g", s.Ply(), total, sum)
		}
		if l.Choose(r, 1) != r.Action {
			t.Fatal("Choose at temperature 1 did not play the search's move")
		}
		s.Play(a)
		moves++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Terminal() || moves == 0 {
		t.Fatalf("the game stopped at %v", s)
	}
}

// TestGumbelAllocatesNothing: once warm, Gumbel searches allocate nothing,
// in one tree and in lock-step.
func TestGumbelAllocatesNothing(t *testing.T) {
	g := env.MustGame(env.Urim)
	s := g.Start()
	m := gumbelMCTS(t, g, 200, 8, GumbelConfig{Noise: 1}, 1)
	m.Act(&s)
	if allocs := testing.AllocsPerRun(10, func() { m.Act(&s) }); allocs > 0 {
		t.Errorf("%v allocations per Gumbel search of 200 simulations, want 0", allocs)
	}
	l := linearLockstep(t, g, LockstepConfig{Games: 16, Search: MCTSConfig{Sims: 100, Batch: 2, Rule: Gumbel, Gumbel: GumbelConfig{Noise: 1}}}, 1)
	jobs := make([]LockstepJob, 16)
	out := make([]RootSearch, 16)
	states := agentPositions(g, 16)
	for i := range jobs {
		jobs[i] = LockstepJob{State: &states[i], Sims: 100}
	}
	l.Search(jobs, out)
	if allocs := testing.AllocsPerRun(10, func() { l.Search(jobs, out) }); allocs > 0 {
		t.Errorf("%v allocations per lock-step Gumbel search of 16 games × 100 simulations, want 0", allocs)
	}
}

// BenchmarkGumbelLockstep measures lock-step Gumbel searches beside PUCT's
// on the linear network; run with -benchmem: 0 allocs/op.
func BenchmarkGumbelLockstep(b *testing.B) {
	g := env.MustGame(env.Urim)
	for _, rule := range []Rule{PUCT, Gumbel} {
		b.Run(rule.String(), func(b *testing.B) {
			l := linearLockstep(b, g, LockstepConfig{Games: 16, Search: MCTSConfig{Sims: 64, Batch: 4, Rule: rule, NoReuse: true, Gumbel: GumbelConfig{Noise: 1}}}, 1)
			jobs := make([]LockstepJob, 16)
			out := make([]RootSearch, 16)
			states := agentPositions(g, 16)
			for i := range jobs {
				jobs[i] = LockstepJob{State: &states[i], Sims: 64}
			}
			for range 50 { // grow the arenas: the noise makes each search's tree another
				l.Search(jobs, out)
			}
			b.ReportAllocs()
			for b.Loop() {
				l.Search(jobs, out)
			}
			b.ReportMetric(float64(b.N)*16*64/b.Elapsed().Seconds(), "sims/s")
		})
	}
}
