package ppo

import (
	"context"
	"github.com/urim-rl/urim/train"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)

// TestPPORolloutAllocatesNothing: once warm, collecting a rollout (network,
// sampling, environment, bootstrap values) and an update's gradient steps
// allocate nothing per step.
func TestPPORolloutAllocatesNothing(t *testing.T) {
	cfg := ppoTinyConfig(t, filepath.Join(t.TempDir(), "run"), "max_plies=12", "ppo.pool.share=0")
	rules, _ := cfg.RulesOf()
	net, err := nn.New(nn.Arch{Kind: "mlp", Width: 16, Depth: 1}, rules, env.EncodingCompact, 1)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := train.NewSession(cfg, net)
	if err != nil {
		t.Fatal(err)
	}
	s, err := newPPOState(sess, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	rng := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()
	collect := func() {
		if _, _, err := s.collect(ctx, &cfg, rng, nil); err != nil {
			t.Fatal(err)
		}
	}
	collect()
	truncated := false
	for _, tr := range s.ro.trunc {
		truncated = truncated || tr
	}
	if !truncated {
		t.Fatal("no game was truncated: the test wants the bootstrap path")
	}
	// The env.Vec's workers may start goroutines when they wake up; count
	// over several rollouts and allow none per step.
	if a := testing.AllocsPerRun(5, collect); a > 0 {
		t.Errorf("a rollout of %d steps allocates %v times", Section.Of(&cfg).Steps, a)
	}
	s.ro.advantages(1, 0.95)
	tr, err := nn.NewTrainer(net, nn.TrainConfig{Threads: 2}, Section.Of(&cfg).Minibatch)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	n, a := Section.Of(&cfg).Minibatch, s.ro.actions
	b := nn.PPOBatch{Obs: s.ro.obs[:n*s.ro.dim], Mask: s.ro.mask[:n*a], Action: s.ro.act[:n], OldLogProb: s.ro.logp[:n],
		OldValue: s.ro.value[:n], Advantage: s.ro.adv[:n], Return: s.ro.ret[:n], N: n}
	loss := ppoLoss(Section.Of(&cfg))
	step := func() { tr.StepPPO(b, loss) }
	step()
	if a := testing.AllocsPerRun(10, step); a > 0 {
		t.Errorf("a PPO gradient step allocates %v times", a)
	}
}
