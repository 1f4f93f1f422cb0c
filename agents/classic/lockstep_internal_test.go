package classic

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urim-rl/urim/agents/neteval"
	"github.com/urim-rl/urim/env"
)

// linearNet is a stand-in network for the search's own tests: logits and
// value are fixed pseudo-random linear functions of the observation row
// (the value through tanh). It allocates nothing once its buffers exist.
type linearNet struct {
	dim, actions   int
	w              []float32 // actions × dim, then dim for the value
	logits, values []float32
}

func newLinearNet(g *env.Game, enc env.Encoding, maxBatch int, seed uint64) *linearNet {
	dim := enc.Dim(g)
	n := &linearNet{dim: dim, actions: g.PitsPerRow(), w: make([]float32, (g.PitsPerRow()+1)*dim),
		logits: make([]float32, maxBatch*g.PitsPerRow()), values: make([]float32, maxBatch)}
	r := NewXorshift(seed)
	for i := range n.w {
		n.w[i] = float32(r.Next()>>40)/float32(1<<24)*4 - 2
	}
	return n
}

func (n *linearNet) MaxBatch() int { return len(n.values) }

func (n *linearNet) Predict(obs []float32, batch int) (logits, values []float32) {
	for b := range batch {
		row := obs[b*n.dim : (b+1)*n.dim]
		for a := 0; a <= n.actions; a++ {
			var s float32
			for j, x := range row {
				s += n.w[a*n.dim+j] * x
			}
			if a < n.actions {
				n.logits[b*n.actions+a] = s
			} else {
				n.values[b] = float32(math.Tanh(float64(s)))
			}
		}
	}
	return n.logits[:batch*n.actions], n.values[:batch]
}

// linearMCTS returns a PUCT search on linear networks, batched by batch.
func linearMCTS(t testing.TB, g *env.Game, sims, batch, threads int, seed uint64) *MCTS {
	t.Helper()
	cfg := MCTSConfig{Sims: sims, C: 1.5, Rule: PUCT, Batch: batch, Threads: threads,
		NewEvaluator: func(uint64) Evaluator {
			return neteval.NewFor(newLinearNet(g, env.EncodingCompact, max(batch, 1), 7), g, env.EncodingCompact, g.PitsPerRow(), max(batch, 1))
		}}
	m, err := NewMCTS(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkTree checks that no virtual loss is left and that every expanded
// node has one visit more than its children together (its own evaluation).
func checkTree(t *testing.T, tr *tree) {
	t.Helper()
	for i := range tr.nodes {
		n := &tr.nodes[i]
		if n.vloss != 0 {
			t.Fatalf("node %d keeps a virtual loss of %d", i, n.vloss)
		}
		if n.kids == 0 {
			continue
		}
		sum := int32(0)
		for k := n.first; k < n.first+int32(n.kids); k++ {
			sum += tr.nodes[k].visits
		}
		if n.visits != sum+1 {
			t.Fatalf("node %d: %d visits, its children %d: want one more", i, n.visits, sum)
		}
	}
}

// TestBatchedSearchLeavesNoResidue: after batched searches with tree reuse
// the virtual losses are gone and the visit counts add up.
func TestBatchedSearchLeavesNoResidue(t *testing.T) {
	for _, name := range []string{"urim", "oware"} {
		g, _ := env.Preset(name)
		m := linearMCTS(t, g, 300, 16, 1, 3)
		s := g.Start()
		for ply := 0; ply < 12 && !s.Terminal(); ply++ {
			a, err := m.Act(&s)
			if err != nil {
				t.Fatal(err)
			}
			checkTree(t, m.trees[0])
			s.Play(a)
		}
		// Near the end of a game most descents reach finished positions.
		for !s.Terminal() {
			m.Act(&s)
			checkTree(t, m.trees[0])
			s.Play(s.Legal().Nth(0))
		}
	}
}

// TestBatchOfOneIsPlainPUCT: the batched search with one leaf per round
// builds exactly the tree of the unbatched search.
func TestBatchOfOneIsPlainPUCT(t *testing.T) {
	g := env.MustGame(env.Urim)
	plain := linearMCTS(t, g, 1, 1, 1, 9).trees[0]
	batched := linearMCTS(t, g, 1, 1, 1, 9).trees[0]
	batched.batch = 1
	s := g.Start()
	for ply := 0; ply < 20 && !s.Terminal(); ply++ {
		plain.search(&s, 200, timeZero, false)
		batched.searchBatched(&s, 200, timeZero, false)
		if len(plain.nodes) != len(batched.nodes) {
			t.Fatalf("ply %d: %d nodes, batched %d", ply, len(plain.nodes), len(batched.nodes))
		}
		for i := range plain.nodes {
			if plain.nodes[i] != batched.nodes[i] {
				t.Fatalf("ply %d, node %d: %+v, batched %+v", ply, i, plain.nodes[i], batched.nodes[i])
			}
		}
		s.Play(s.Legal().Nth(ply % s.Legal().Count()))
	}
}

// TestBatchedSearchAllocatesNothing: once warm, a batched search allocates
// nothing per simulation, in one tree and in lock-step.
func TestBatchedSearchAllocatesNothing(t *testing.T) {
	g := env.MustGame(env.Urim)
	s := g.Start()
	m := linearMCTS(t, g, 400, 8, 1, 1)
	m.cfg.NoReuse = true
	m.Act(&s)
	if allocs := testing.AllocsPerRun(10, func() { m.Act(&s) }); allocs > 0 {
		t.Errorf("%v allocations per batched search of 400 simulations, want 0", allocs)
	}
	l := linearLockstep(t, g, LockstepConfig{Games: 16, Search: MCTSConfig{Sims: 100, Batch: 2, NoReuse: true, Rule: PUCT}, NoiseFrac: 0.25, NoiseAlpha: 0.3}, 1)
	jobs := make([]LockstepJob, 16)
	out := make([]RootSearch, 16)
	states := agentPositions(g, 16)
	for i := range jobs {
		jobs[i] = LockstepJob{State: &states[i], Sims: 100, Noise: true}
	}
	l.Search(jobs, out)
	if allocs := testing.AllocsPerRun(10, func() { l.Search(jobs, out) }); allocs > 0 {
		t.Errorf("%v allocations per lock-step search of 16 games × 100 simulations, want 0", allocs)
	}
}

// agentPositions returns n positions of g a few random plies from the start.
func agentPositions(g *env.Game, n int) []env.State {
	r := NewXorshift(5)
	out := make([]env.State, 0, n)
	for len(out) < n {
		s := g.Start()
		for k := r.intn(7) + 1; k > 0 && !s.Terminal(); k-- {
			m := s.Legal()
			s.Play(m.Nth(r.intn(m.Count())))
		}
		if !s.Terminal() {
			out = append(out, s)
		}
	}
	return out
}

func linearLockstep(t testing.TB, g *env.Game, cfg LockstepConfig, seed uint64) *Lockstep {
	t.Helper()
	l, err := NewLockstep(g, cfg, func(rows int) LockstepEvaluator {
		return neteval.NewFor(newLinearNet(g, env.EncodingCompact, rows, 7), g, env.EncodingCompact, g.PitsPerRow(), rows)
	}, seed)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestLockstepOneGameIsTheMCTS: one game in lock-step, without noise and at
// temperature 0, plays the moves of the batched PUCT agent playing itself
// with the same seed, and reports the same visits.
func TestLockstepOneGameIsTheMCTS(t *testing.T) {
	g := env.MustGame(env.Urim)
	for _, leaves := range []int{1, 4} {
		l := linearLockstep(t, g, LockstepConfig{Games: 1, Search: MCTSConfig{Sims: 120, Batch: leaves, Rule: PUCT}}, 11)
		m := linearMCTS(t, g, 120, leaves, 1, 11)
		s := g.Start()
		err := l.Play(context.Background(), 1, func(mv *SelfPlayMove) error {
			a, err := m.Act(&s)
			if err != nil {
				return err
			}
			if a != mv.Action || m.LastSearch().Visits != mv.Search.Visits {
				t.Fatalf("leaves %d, ply %d: lock-step played %d with visits %v, the agent %d with %v",
					leaves, s.Ply(), mv.Action, mv.Search.Visits, a, m.LastSearch().Visits)
			}
			s.Play(a)
			if (mv.Final != nil) != s.Terminal() {
				t.Fatalf("Final %v at %v", mv.Final, s)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !s.Terminal() {
			t.Fatalf("leaves %d: the lock-step game stopped at %v", leaves, s)
		}
	}
}

// TestLockstepPlay: games are reproducible from the seed; every move
// reports a policy over legal actions summing to 1, simulations as
// configured (full or fast), and game indices cover all games.
func TestLockstepPlay(t *testing.T) {
	g := env.MustGame(env.Oware)
	cfg := LockstepConfig{Games: 4, Search: MCTSConfig{Sims: 64, Batch: 2, Rule: PUCT}, NoiseAlpha: 0.5, NoiseFrac: 0.25, Moves: SelfPlayPolicy{FastSims: 16, FullProb: 0.25, Temperature: 1, TempPlies: 10}}
	run := func() (moves []int, full, fast int, seen map[int]bool) {
		seen = map[int]bool{}
		l := linearLockstep(t, g, cfg, 5)
		err := l.Play(context.Background(), 6, func(m *SelfPlayMove) error {
			moves = append(moves, m.Game*10+m.Action)
			seen[m.Game] = true
			if !m.Before.Legal().Has(m.Action) {
				t.Fatalf("illegal move %d at %v", m.Action, m.Before)
			}
			var sum float32
			for a, p := range m.Search.Policy {
				if p > 0 && !m.Before.Legal().Has(a) {
					t.Fatalf("policy %v on illegal action %d at %v", m.Search.Policy, a, m.Before)
				}
				sum += p
			}
			if math.Abs(float64(sum)-1) > 1e-5 {
				t.Fatalf("policy %v sums to %g", m.Search.Policy, sum)
			}
			if m.Search.Value < -1 || m.Search.Value > 1 {
				t.Fatalf("root value %g", m.Search.Value)
			}
			want := 16
			if m.Search.Full {
				want = 64
				full++
			} else {
				fast++
			}
			if m.Search.Sims != want {
				t.Fatalf("sims %d for a full=%v search", m.Search.Sims, m.Search.Full)
			}
			if wantT := map[bool]float64{true: 1, false: 0}[m.Before.Ply() < 10]; m.Temperature != wantT {
				t.Fatalf("temperature %g at ply %d", m.Temperature, m.Before.Ply())
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return moves, full, fast, seen
	}
	a, full, fast, seen := run()
	b, _, _, _ := run()
	if len(seen) != 6 {
		t.Fatalf("games seen %v, want 0 to 5", seen)
	}
	if full == 0 || fast <= full {
		t.Fatalf("%d full and %d fast searches, want both and about 3 fast per full", full, fast)
	}
	if len(a) != len(b) {
		t.Fatalf("two runs with the same seed: %d and %d moves", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("two runs with the same seed differ at move %d", i)
		}
	}
}

// TestRootNoise: the noise keeps the root priors a distribution and
// changes them.
func TestRootNoise(t *testing.T) {
	g := env.MustGame(env.Urim)
	l := linearLockstep(t, g, LockstepConfig{Games: 1, Search: MCTSConfig{Sims: 1, Rule: PUCT}, NoiseFrac: 0.5, NoiseAlpha: 0.3}, 2)
	s := g.Start()
	out := make([]RootSearch, 1)
	l.Search([]LockstepJob{{State: &s, Sims: 1}}, out) // expands the root, no noise
	tr := l.trees[0]
	before := append([]node(nil), tr.nodes[1:1+tr.nodes[0].kids]...)
	l.Search([]LockstepJob{{State: &s, Sims: 1, Noise: true}}, out)
	var sum float32
	changed := false
	for i, c := range tr.nodes[1 : 1+tr.nodes[0].kids] {
		sum += c.prior
		changed = changed || c.prior != before[i].prior
	}
	if !changed || math.Abs(float64(sum)-1) > 1e-5 {
		t.Fatalf("priors %v → %v (sum %g)", before, tr.nodes[1:1+tr.nodes[0].kids], sum)
	}
	// Dirichlet draws are distributions for small and large alpha.
	var d [6]float64
	for _, alpha := range []float64{0.03, 0.3, 1, 10} {
		dirichlet(l.rng, alpha, d[:])
		var s float64
		for _, x := range d {
			if x < 0 || math.IsNaN(x) {
				t.Fatalf("alpha %g: draw %v", alpha, d)
			}
			s += x
		}
		if math.Abs(s-1) > 1e-9 {
			t.Fatalf("alpha %g: draw %v sums to %g", alpha, d, s)
		}
	}
}

var timeZero time.Time

// TestLockstepChecksTheGame: positions of another Game value with the same
// rules are searched (without allocating); other rules are a caller bug.
func TestLockstepChecksTheGame(t *testing.T) {
	g := env.MustGame(env.Urim)
	l := linearLockstep(t, g, LockstepConfig{Games: 1, Search: MCTSConfig{Sims: 8, Rule: PUCT}}, 1)
	same := env.MustGame(env.Urim).Start()
	out := make([]RootSearch, 1)
	jobs := []LockstepJob{{State: &same, Sims: 8}}
	l.Search(jobs, out)
	if allocs := testing.AllocsPerRun(5, func() { l.Search(jobs, out) }); allocs > 0 {
		t.Errorf("%v allocations per search of a position of an equal game", allocs)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "trained for urim") {
			t.Fatalf("searching an oware position: %v, want a panic naming the rules", r)
		}
	}()
	other := env.MustGame(env.Oware).Start()
	l.Search([]LockstepJob{{State: &other, Sims: 8}}, out)
}

// TestLockstepPlayChecksStarts: a start of other rules is an error, not a
// panic; a finished start is reported once, with no move, as the end of
// its game.
func TestLockstepPlayChecksStarts(t *testing.T) {
	g := env.MustGame(env.Urim)
	finished := g.Start()
	for !finished.Terminal() {
		finished.Play(finished.Legal().Nth(0))
	}
	start := func(s env.State) SelfPlayPolicy { return SelfPlayPolicy{Start: func(int) env.State { return s }} }
	l := linearLockstep(t, g, LockstepConfig{Games: 2, Search: MCTSConfig{Sims: 4, Rule: PUCT}, Moves: start(env.MustGame(env.Oware).Start())}, 1)
	if err := l.Play(context.Background(), 3, func(*SelfPlayMove) error { return nil }); err == nil {
		t.Errorf("oware start: no error")
	}
	l = linearLockstep(t, g, LockstepConfig{Games: 2, Search: MCTSConfig{Sims: 4, Rule: PUCT}, Moves: start(finished)}, 1)
	var ends []int
	err := l.Play(context.Background(), 3, func(m *SelfPlayMove) error {
		if m.Action != -1 || m.Final != m.Before || !m.Final.Terminal() {
			t.Errorf("game %d: action %d, final %v", m.Game, m.Action, m.Final)
		}
		ends = append(ends, m.Game)
		return nil
	})
	if err != nil || !slices.Equal(ends, []int{0, 1, 2}) {
		t.Errorf("finished starts: games %v reported, %v; want 0 1 2 once each", ends, err)
	}
}

// TestLockstepEndgameBoost: full searches at positions whose board holds
// BoostMinSeeds to BoostMaxSeeds seeds run BoostSims simulations; the
// others, and fast searches, run what they did.
func TestLockstepEndgameBoost(t *testing.T) {
	g := env.MustGame(env.Oware)
	cfg := LockstepConfig{Games: 4, Search: MCTSConfig{Sims: 16, Batch: 2, Rule: PUCT},
		Moves: SelfPlayPolicy{FastSims: 4, FullProb: 0.5, BoostSims: 48, BoostMinSeeds: 20, BoostMaxSeeds: 30}}
	l := linearLockstep(t, g, cfg, 7)
	boosted, plain := 0, 0
	err := l.Play(context.Background(), 8, func(m *SelfPlayMove) error {
		n := m.Before.RowSeeds(0) + m.Before.RowSeeds(1)
		want := 4
		switch {
		case m.Search.Full && n >= 20 && n <= 30:
			want = 48
			boosted++
		case m.Search.Full:
			want = 16
			plain++
		}
		if m.Search.Sims != want {
			t.Fatalf("%d sims at %d seeds on the board (full %v), want %d", m.Search.Sims, n, m.Search.Full, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if boosted == 0 || plain == 0 {
		t.Errorf("%d boosted and %d plain full searches: the test did not reach both", boosted, plain)
	}
	bad := cfg
	bad.Moves.BoostMinSeeds, bad.Moves.BoostMaxSeeds = 30, 20
	if _, err := NewLockstep(g, bad, nil, 1); err == nil {
		t.Error("a boost band of 30 to 20 seeds accepted")
	}
}

// TestRootPolicyTemperature: temperRoot raises the root's priors to 1/T
// and renormalises them; a search with RootTemp 1 is the search without.
func TestRootPolicyTemperature(t *testing.T) {
	tr := &tree{nodes: []node{{first: 1, kids: 3}, {prior: 0.6}, {prior: 0.3}, {prior: 0.1}}}
	tr.temperRoot(2)
	raw := []float64{math.Sqrt(0.6), math.Sqrt(0.3), math.Sqrt(0.1)}
	sum := raw[0] + raw[1] + raw[2]
	for i, r := range raw {
		if got := float64(tr.nodes[1+i].prior); math.Abs(got-r/sum) > 1e-6 {
			t.Errorf("child %d: prior %v, want %v", i, got, r/sum)
		}
	}
	if tr.nodes[3].prior <= 0.1 || tr.nodes[1].prior >= 0.6 {
		t.Errorf("a temperature of 2 did not flatten the priors: %v", tr.nodes[1:])
	}
	g := env.MustGame(env.Oware)
	play := func(temp float64) []int {
		cfg := LockstepConfig{Games: 2, Search: MCTSConfig{Sims: 24, Batch: 2, Rule: PUCT}, NoiseAlpha: 0.5, NoiseFrac: 0.25, RootTemp: temp,
			Moves: SelfPlayPolicy{Temperature: 1, TempPlies: 10}}
		var visits []int
		err := linearLockstep(t, g, cfg, 3).Play(context.Background(), 2, func(m *SelfPlayMove) error {
			visits = append(visits, m.Search.Visits[:]...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return visits
	}
	if a, b := play(0), play(1); !reflect.DeepEqual(a, b) {
		t.Error("RootTemp 1 changed the search")
	}
	if a, b := play(0), play(3); reflect.DeepEqual(a, b) {
		t.Error("RootTemp 3 changed nothing")
	}
	bad := LockstepConfig{Games: 1, Search: MCTSConfig{Sims: 8, Rule: PUCT}, RootTemp: 20}
	if _, err := NewLockstep(g, bad, nil, 1); err == nil {
		t.Error("a root temperature of 20 accepted")
	}
}
