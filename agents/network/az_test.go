package network_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/agenttest"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/agents/network"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)

// runPerPreset runs the conformance suite on spec(checkpoint of the
// preset) for every preset: a network plays only its own rules.
func runPerPreset(t *testing.T, spec func(ckpt string) string) {
	dir := t.TempDir()
	for _, preset := range env.PresetNames() {
		s := spec(agenttest.WriteNet(t, dir, preset, false))
		t.Run(preset, func(t *testing.T) {
			agenttest.RunWith(t, s, agenttest.Options{Positions: 20, Games: 1, Presets: []string{preset}})
		})
	}
}

func TestNeuralConformance(t *testing.T) {
	runPerPreset(t, func(ckpt string) string { return "neural:ckpt=" + ckpt })
	runPerPreset(t, func(ckpt string) string { return "neural:temp=1,ckpt=" + ckpt })
}

func TestAZConformance(t *testing.T) {
	runPerPreset(t, func(ckpt string) string { return "az:sims=24,batch=4,ckpt=" + ckpt })
	runPerPreset(t, func(ckpt string) string { return "az:sims=24,batch=4,root=gumbel,ckpt=" + ckpt })
	// Two threads, under the race detector in CI; no reuse, one leaf a round.
	dir := t.TempDir()
	ckpt := agenttest.WriteNet(t, dir, "urim", false)
	for _, params := range []string{"sims=24,batch=4,threads=2", "sims=16,batch=1,reuse=false", "sims=16,batch=1,root=gumbel,m=2"} {
		t.Run(params, func(t *testing.T) {
			agenttest.RunWith(t, "az:"+params+",ckpt="+ckpt, agenttest.Options{Positions: 10, Games: 1, Presets: []string{"urim"}})
		})
	}
}

// uniformEvaluator gives uniform priors and the value 0, like a network
// whose weights are all 0.
type uniformEvaluator struct{}

func (uniformEvaluator) Evaluate(s *env.State, prior []float32) float32 {
	u := 1 / float32(s.Legal().Count())
	for m := s.Legal(); m != 0; m &= m - 1 {
		prior[m.Nth(0)] = u
	}
	return 0
}

// TestAZWithAFlatNetworkIsPlainPUCT: an az agent whose network gives
// uniform priors and zero values searches exactly as the MCTS with PUCT
// on an evaluator that does the same: same moves, same visit counts.
func TestAZWithAFlatNetworkIsPlainPUCT(t *testing.T) {
	ckpt := agenttest.WriteNet(t, t.TempDir(), "urim", true)
	g := env.MustGame(env.Urim)
	az, err := agents.New("az:sims=150,batch=1,c=1.5,ckpt="+ckpt, 4)
	if err != nil {
		t.Fatal(err)
	}
	puct, err := classic.NewMCTS(classic.MCTSConfig{Sims: 150, C: 1.5, Rule: classic.PUCT,
		NewEvaluator: func(uint64) classic.Evaluator { return uniformEvaluator{} }}, 4)
	if err != nil {
		t.Fatal(err)
	}
	s := g.Start()
	for ply := 0; ply < 40 && !s.Terminal(); ply++ {
		a, err := az.Act(&s)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := puct.Act(&s)
		x, y := az.(agents.Searcher).LastSearch(), puct.LastSearch()
		if a != b || x.Visits != y.Visits || x.Value != y.Value {
			t.Fatalf("ply %d: az played %d %+v, PUCT %d %+v", ply, a, x, b, y)
		}
		s.Play(a)
	}
}

// TestLockstepOneGameIsTheAZAgent: the lock-step search of one game
// without noise, at temperature 0, plays the moves of the az agent playing
// itself with the same seed and settings.
func TestLockstepOneGameIsTheAZAgent(t *testing.T) {
	ckpt := agenttest.WriteNet(t, t.TempDir(), "urim", false)
	net, err := nn.LoadNet(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	for _, batch := range []int{1, 4} {
		l, err := network.NewLockstep(net, classic.LockstepConfig{Games: 1, Search: classic.MCTSConfig{Sims: 64, Batch: batch, C: 1.5, Rule: classic.PUCT}}, 1, 9)
		if err != nil {
			t.Fatal(err)
		}
		az, err := agents.New("az:sims=64,c=1.5,ckpt="+ckpt+",batch="+string(rune('0'+batch)), 9)
		if err != nil {
			t.Fatal(err)
		}
		s := env.MustGame(env.Urim).Start()
		moves := 0
		err = l.Play(t.Context(), 1, func(m *classic.SelfPlayMove) error {
			a, err := az.Act(&s)
			if err != nil {
				return err
			}
			if a != m.Action || az.(agents.Searcher).LastSearch().Visits != m.Search.Visits {
				t.Fatalf("batch %d, ply %d: lock-step played %d (visits %v), the az agent %d (visits %v)",
					batch, s.Ply(), m.Action, m.Search.Visits, a, az.(agents.Searcher).LastSearch().Visits)
			}
			s.Play(a)
			moves++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !s.Terminal() || moves == 0 {
			t.Fatalf("batch %d: stopped after %d moves at %v", batch, moves, s)
		}
	}
}

// TestNeuralAgentsCheckTheirSpecs: a missing, unreadable, corrupt or
// truncated checkpoint and bad parameters are errors that say which; a
// network asked to play other rules says so at the first move.
func TestNeuralAgentsCheckTheirSpecs(t *testing.T) {
	dir := t.TempDir()
	ckpt := agenttest.WriteNet(t, dir, "urim", false)
	data, err := os.ReadFile(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(dir, "corrupt.ckpt")
	flipped := append([]byte(nil), data...)
	flipped[len(flipped)-3] ^= 0x40
	truncated := filepath.Join(dir, "truncated.ckpt")
	if os.WriteFile(corrupt, flipped, 0o644) != nil || os.WriteFile(truncated, data[:len(data)/2], 0o644) != nil {
		t.Fatal("cannot write the test files")
	}
	for _, kind := range []string{"neural", "az"} {
		for spec, want := range map[string]string{
			kind:                                 `ckpt="": want the path of a network checkpoint`,
			kind + ":ckpt=" + dir + "/none.ckpt": "no such file",
			kind + ":ckpt=" + corrupt:            "corrupt",
			kind + ":ckpt=" + truncated:          "truncated",
			kind + ":ckpt=" + ckpt + ",seed=-1":  `seed="-1": want an integer`,
			kind + ":ckpt=" + ckpt + ",depth=3":  `unknown parameter depth for agent "` + kind + `" (accepted: `,
		} {
			agenttest.SpecError(t, spec, want)
		}
	}
	// Validate builds nothing but still finds a missing file.
	if err := agents.Validate("az:ckpt=" + dir + "/none.ckpt"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("Validate with a missing checkpoint: %v", err)
	}
	if err := agents.Validate("neural:ckpt=" + ckpt); err != nil {
		t.Errorf("Validate: %v", err)
	}
	agenttest.SpecError(t, "neural:ckpt="+ckpt+",temp=-1", `temp="-1": want a number from 0 to 100`)
	agenttest.SpecError(t, "az:ckpt="+ckpt+",batch=0", `batch="0": want an integer from 1 to 1024`)
	agenttest.SpecError(t, "az:ckpt="+ckpt+",sims=x", `sims="x"`)
	oware := env.MustGame(env.Oware).Start()
	for _, spec := range []string{"neural:ckpt=" + ckpt, "az:sims=10,ckpt=" + ckpt} {
		a, err := agents.New(spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Act(&oware); err == nil || !strings.Contains(err.Error(), "trained for urim") ||
			!strings.Contains(err.Error(), "oware") {
			t.Errorf("%s playing oware: %v, want an error naming both rules", spec, err)
		}
	}
}

// TestNeuralAgentsAllocateNothing: once warm, a move of the policy agent
// and a search of the az agent allocate nothing.
func TestNeuralAgentsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the network's thread pool allocates under the race detector")
	}
	ckpt := agenttest.WriteNet(t, t.TempDir(), "urim", false)
	s := env.MustGame(env.Urim).Start()
	for _, spec := range []string{"neural:temp=1,ckpt=" + ckpt, "az:sims=300,batch=8,reuse=false,ckpt=" + ckpt} {
		a, err := agents.New(spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		a.Act(&s)
		if allocs := testing.AllocsPerRun(10, func() { a.Act(&s) }); allocs > 0 {
			t.Errorf("%s: %v allocations per move, want 0", spec, allocs)
		}
	}
}

// TestNeuralArgmax: at temperature 0 the policy agent plays the legal move
// with the largest logit, and the same one every time.
func TestNeuralArgmax(t *testing.T) {
	ckpt := agenttest.WriteNet(t, t.TempDir(), "urim", false)
	net, _ := nn.LoadNet(ckpt)
	pred := net.NewPredictor(1)
	enc := env.NewEncoder(env.MustGame(env.Urim), env.EncodingCompact)
	obs := make([]float32, enc.Dim())
	a := network.NewNeural(net, ckpt, 0, 1)
	for _, s := range agenttest.RandomPositions(env.MustGame(env.Urim), 50, 3) {
		enc.Encode(obs, &s)
		logits, values := pred.Predict(obs, 1)
		want := -1
		for _, m := range s.Legal().Actions() {
			if want < 0 || logits[m] > logits[want] {
				want = m
			}
		}
		got, err := a.Act(&s)
		if err != nil || got != want || a.LastSearch().Value != float64(values[0]) {
			t.Fatalf("%v: played %d (%v, value %g), want %d (value %g; logits %v)", &s, got, err, a.LastSearch().Value, want, values[0], logits)
		}
	}
}

// TestAZTimeBudget: with only a time limit the az agent searches until it
// runs out and plays a legal move.
func TestAZTimeBudget(t *testing.T) {
	ckpt := agenttest.WriteNet(t, t.TempDir(), "urim", false)
	a, err := agents.New("az:time=20ms,batch=4,ckpt="+ckpt, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := env.MustGame(env.Urim).Start()
	m, err := agenttest.CheckAct(a, &s)
	if err != nil {
		t.Fatal(err)
	}
	if sims := a.(agents.Searcher).LastSearch().Depth; sims < 4 {
		t.Fatalf("played %d after %d simulations in 20ms, want a few", m, sims)
	}
}

// TestAZGumbelSpec: root=gumbel is in the agent's description, and the
// budgets it cannot run are refused with the reason.
func TestAZGumbelSpec(t *testing.T) {
	ckpt := agenttest.WriteNet(t, t.TempDir(), "urim", false)
	a, err := agents.New("az:sims=32,root=gumbel,ckpt="+ckpt, 1)
	if err != nil {
		t.Fatal(err)
	}
	if d := fmt.Sprint(a); !strings.Contains(d, "root=gumbel,m=16") {
		t.Errorf("description %q does not say root=gumbel,m=16", d)
	}
	for _, bad := range []string{"time=1s,sims=0,root=gumbel", "threads=2,root=gumbel", "root=sh", "root=puct,m=4"} {
		if _, err := agents.New("az:"+bad+",ckpt="+ckpt, 1); err == nil {
			t.Errorf("az:%s was accepted", bad)
		}
	}
}
