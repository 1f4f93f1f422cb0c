package table_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/agents/network"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/tablebase"
	"github.com/urim-rl/urim/tablebase/tbtest"

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)

// finish plays s to the end with players[mover] and returns the seeds,
// of those on the board at the start, that the player to move at the start
// ends with.
func finish(t *testing.T, s env.State, players [2]agents.Agent) int {
	t.Helper()
	me := s.ToMove()
	store := s.Store(me)
	for !s.Terminal() {
		a, err := players[s.ToMove()].Act(&s)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Check(a); err != nil {
			t.Fatal(err)
		}
		s.Play(a)
	}
	return s.FinalStores()[me] - store
}

// TestTBAgentKeepsValue plays the tb agent against itself from sampled
// table positions: the result must lie within the position's bounds, and
// equal its value where they meet; against random opponents the tb side
// must make at least its lower bound.
func TestTBAgentKeepsValue(t *testing.T) {
	k, games := 8, 400
	if testing.Short() {
		k, games = 6, 100
	}
	path, tb := tbtest.File(t, env.Urim, k)
	g := env.MustGame(env.Urim)
	spec := "tb:file=" + path + ",fallback=random"
	a, err := agents.New(spec, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := agents.New(spec, 2)
	rnd, _ := agents.New("random", 3)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < games; i++ {
		s, err := tb.Sample(g, 1+rng.IntN(k), rng)
		if err != nil {
			t.Fatal(err)
		}
		if s.Terminal() {
			continue
		}
		e, err := tb.Probe(&s)
		if err != nil {
			t.Fatal(err)
		}
		if v := finish(t, s, [2]agents.Agent{a, b}); v < e.Lower || v > e.Upper {
			t.Fatalf("%s: self-play ends with %d for the mover, the table says [%d, %d]", s.String(), v, e.Lower, e.Upper)
		}
		players := [2]agents.Agent{rnd, rnd}
		players[s.ToMove()] = a
		if v := finish(t, s, players); v < e.Lower {
			t.Fatalf("%s: tb against random ends with %d, below the lower bound %d", s.String(), v, e.Lower)
		}
	}
}

// TestTableHooks checks that alphabeta and mcts accept tb= and play legal
// moves, and that tb= and the tb agent refuse a missing file.
func TestTableHooks(t *testing.T) {
	path, _ := tbtest.File(t, env.Urim, 4)
	g := env.MustGame(env.Urim)
	s, err := g.ParsePosition("0,0,1,0,0,2/0,0,3,0,0,0 14-16 S 50")
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"alphabeta:depth=4,tb=" + path, "mcts:sims=200,tb=" + path, "tb:file=" + path} {
		a, err := agents.New(spec, 1)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		m, err := a.Act(&s)
		if err != nil || !s.Legal().Has(m) {
			t.Fatalf("%s: Act = %d, %v", spec, m, err)
		}
	}
	for _, spec := range []string{"alphabeta:tb=/nonexistent.tb", "mcts:tb=/nonexistent.tb", "tb:file=/nonexistent.tb", "tb"} {
		if _, err := agents.New(spec, 1); err == nil {
			t.Fatalf("%s: no error", spec)
		}
	}
}

// flatNet returns a network of rules r whose every output is zero: uniform
// priors and a value of 0 everywhere, so that a search on it knows nothing
// but what the table tells it. It is also saved as a checkpoint.
func flatNet(t *testing.T, r env.Rules) (*nn.Net, string) {
	t.Helper()
	net, err := nn.New(nn.Arch{Kind: "mlp", Width: 8, Depth: 1}, r, env.EncodingCompact, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range net.Params() {
		clear(p.W)
	}
	path := filepath.Join(t.TempDir(), "flat.ckpt")
	if err := nn.Save(path, &nn.Checkpoint{Net: net}); err != nil {
		t.Fatal(err)
	}
	return net, path
}

// tablePositions samples n positions of the table where the mover has a
// choice and every move's value is exact.
func tablePositions(t *testing.T, tb *tablebase.Table, g *env.Game, n int) []env.State {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	var out []env.State
	for len(out) < n {
		s, err := tb.Sample(g, 1+rng.IntN(tb.MaxSeeds()), rng)
		if err != nil {
			t.Fatal(err)
		}
		if s.Terminal() || s.Legal().Count() < 2 {
			continue
		}
		moves, err := tb.Moves(&s)
		if err != nil {
			t.Fatal(err)
		}
		exact := true
		for _, m := range moves {
			exact = exact && m.Lower == m.Upper
		}
		if exact {
			out = append(out, s)
		}
	}
	return out
}

// TestAZTable: an az agent on a flat network with tb= plays, in table
// positions, a move that keeps the best result its reward (match points)
// can tell, by the table; without the table it does not always.
func TestAZTable(t *testing.T) {
	path, tb := tbtest.File(t, env.Urim, 6)
	g := env.MustGame(env.Urim)
	_, ckpt := flatNet(t, env.Urim)
	with, err := agents.New("az:ckpt="+ckpt+",sims=300,tb="+path, 1)
	if err != nil {
		t.Fatal(err)
	}
	without, err := agents.New("az:ckpt="+ckpt+",sims=300", 1)
	if err != nil {
		t.Fatal(err)
	}
	misses := 0
	for _, s := range tablePositions(t, tb, g, 60) {
		moves, _ := tb.Moves(&s)
		me, n := s.ToMove(), s.RowSeeds(0)+s.RowSeeds(1)
		points := map[int]int{} // action → the mover's match points minus the opponent's
		best := -3
		for _, m := range moves {
			mp := env.MatchPoints([2]int{s.Store(me) + m.Lower, s.Store(1-me) + n - m.Lower}, g.Total())
			points[m.Action] = mp[0] - mp[1]
			best = max(best, mp[0]-mp[1])
		}
		agents.Reset(with)
		if a, err := with.Act(&s); err != nil || points[a] != best {
			t.Fatalf("%s: az with tb= plays %d (%d match points net, %v), the table's best is %d", s.String(), a, points[a], err, best)
		}
		agents.Reset(without)
		if a, _ := without.Act(&s); points[a] != best {
			misses++
		}
	}
	if misses == 0 {
		t.Error("the flat network alone found every best move: the test shows nothing")
	}
	if _, err := agents.New("az:ckpt="+ckpt+",tb=/nonexistent.tb", 1); err == nil {
		t.Error("az with a missing table: no error")
	}
	other, _ := tbtest.File(t, env.Urim4, 3)
	if _, err := agents.New("az:ckpt="+ckpt+",tb="+other, 1); !errors.Is(err, tablebase.ErrMismatch) {
		t.Errorf("az with a table of other rules: %v, want a rules mismatch", err)
	}
}

// TestTableBatchedSameAsUnbatched: in a table position every descent below
// the root ends in the table and is backed up at once, so batched search
// (and the lock-step search) give the visits of the unbatched search.
func TestTableBatchedSameAsUnbatched(t *testing.T) {
	_, tb := tbtest.File(t, env.Urim, 6)
	g := env.MustGame(env.Urim)
	net, _ := flatNet(t, env.Urim)
	search := func(batch int) *network.AZ {
		a, err := network.NewAZ(net, "flat", classic.MCTSConfig{Sims: 200, C: 1.5, Batch: batch, Table: tb}, 5)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	one, eight := search(1), search(8)
	ls, err := network.NewLockstep(net, classic.LockstepConfig{Games: 1, Search: classic.MCTSConfig{Sims: 200, Batch: 8, Table: tb, Rule: classic.PUCT}}, 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]classic.RootSearch, 1)
	for _, s := range tablePositions(t, tb, g, 20) {
		agents.Reset(one)
		agents.Reset(eight)
		a1, _ := one.Act(&s)
		a8, _ := eight.Act(&s)
		v1, v8 := one.LastSearch().Visits, eight.LastSearch().Visits
		if a1 != a8 || v1 != v8 {
			t.Fatalf("%s: unbatched plays %d with visits %v, batched %d with %v", s.String(), a1, v1, a8, v8)
		}
		ls.Reset()
		ls.Search([]classic.LockstepJob{{State: &s, Sims: 200}}, out)
		if ls.Choose(&out[0], 0) != a1 || out[0].Visits != v1 {
			t.Fatalf("%s: the lock-step search plays %d with visits %v; unbatched %d with %v", s.String(), ls.Choose(&out[0], 0), out[0].Visits, a1, v1)
		}
	}
}

// TestTableSearchAllocs: a search that ends its simulations in the table
// allocates nothing once its tree has grown.
func TestTableSearchAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	_, tb := tbtest.File(t, env.Urim, 6)
	net, _ := flatNet(t, env.Urim)
	g := env.MustGame(env.Urim)
	for _, batch := range []int{1, 8} {
		a, err := network.NewAZ(net, "flat", classic.MCTSConfig{Sims: 200, C: 1.5, Batch: batch, Table: tb}, 5)
		if err != nil {
			t.Fatal(err)
		}
		s := tablePositions(t, tb, g, 1)[0]
		search := func() {
			agents.Reset(a)
			if _, err := a.Act(&s); err != nil {
				t.Fatal(err)
			}
		}
		search()
		if n := testing.AllocsPerRun(20, search); n != 0 {
			t.Errorf("batch %d: %v allocations per search", batch, n)
		}
	}
}

// TestTableTargetValueAlone: without withBest, TableTarget gives the same
// value for the same positions as with it, and no best moves (the value
// target of training.tablebase needs one probe, not each move's analysis).
func TestTableTargetValueAlone(t *testing.T) {
	_, tb := tbtest.File(t, env.Urim, 6)
	g := env.MustGame(env.Urim)
	rng := rand.New(rand.NewPCG(3, 4))
	held := 0
	for range 100 {
		s, err := tb.Sample(g, 1+rng.IntN(6), rng)
		if err != nil {
			t.Fatal(err)
		}
		for !s.Terminal() {
			v1, best1, ok1 := classic.TableTarget(tb, &s, env.RewardMatchPoints, true)
			v0, best0, ok0 := classic.TableTarget(tb, &s, env.RewardMatchPoints, false)
			if ok0 != ok1 || v0 != v1 || best0 != 0 || (ok1 && best1 == 0) {
				t.Fatalf("%s: with best (%v %v %v), value alone (%v %v %v)", s.String(), v1, best1, ok1, v0, best0, ok0)
			}
			if ok0 {
				held++
			}
			legal := s.Legal()
			s.Play(legal.Nth(rng.IntN(legal.Count())))
		}
	}
	if held == 0 {
		t.Fatal("no position held exactly: the test checks nothing")
	}
}

// TestTableTargetStoredBest: from a table with stored best moves,
// TableTarget's best moves are the position's, analysed with only itself
// as history (Best of the fresh position), whatever the history; the value
// is the same as from a table without them.
func TestTableTargetStoredBest(t *testing.T) {
	plain, _, err := tablebase.Build(context.Background(), env.Urim, 5, tablebase.Options{})
	if err != nil {
		t.Fatal(err)
	}
	stored, _, err := tablebase.Build(context.Background(), env.Urim, 5, tablebase.Options{StoreMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	g := env.MustGame(env.Urim)
	rng := rand.New(rand.NewPCG(5, 6))
	held, withHistory := 0, 0
	for range 100 {
		s, err := stored.Sample(g, 1+rng.IntN(5), rng)
		if err != nil {
			t.Fatal(err)
		}
		for !s.Terminal() {
			v1, best1, ok1 := classic.TableTarget(stored, &s, env.RewardMatchPoints, true)
			v0, _, ok0 := classic.TableTarget(plain, &s, env.RewardMatchPoints, true)
			if ok0 != ok1 || v0 != v1 {
				t.Fatalf("%s: stored (%v %v), plain (%v %v)", s.String(), v1, ok1, v0, ok0)
			}
			if ok1 {
				f := s.Fresh()
				moves, err := plain.Best(&f)
				if err != nil {
					t.Fatal(err)
				}
				var want env.Mask
				for _, m := range moves {
					want |= env.Mask(1) << m.Action
				}
				if best1 != want {
					t.Fatalf("%s: stored best %v, the fresh analysis %v", s.String(), best1.Actions(), want.Actions())
				}
				held++
				if s.Quiet() > 0 {
					withHistory++
				}
			}
			legal := s.Legal()
			s.Play(legal.Nth(rng.IntN(legal.Count())))
		}
	}
	if held == 0 || withHistory == 0 {
		t.Fatalf("%d positions held exactly, %d with a history: the test checks too little", held, withHistory)
	}
}
