package cluster

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
	"github.com/urim-rl/urim/train/alphazero"
)

// runPlayers are the test learner's network as the in-run rating plays
// it, under iterations its (held in memory here, sent to workers as its
// checkpoint).
func runPlayers(t *testing.T, l *Learner, cfg *train.Config, its ...int) []evaluate.Player {
	t.Helper()
	net, err := nn.LoadNet(l.testNet)
	if err != nil {
		t.Fatal(err)
	}
	reward, err := env.ParseRewardKind(cfg.Reward)
	if err != nil {
		t.Fatal(err)
	}
	var ps []evaluate.Player
	for _, it := range its {
		sims := alphazero.EvalSims(cfg, it)
		p := alphazero.EvalPlayer(cfg, reward, it, sims, net)
		p.Remote = train.RunNetwork{Path: l.testNet, Iter: it, Params: map[string]string{"sims": strconv.Itoa(sims)}}.Spec()
		ps = append(ps, p)
	}
	return ps
}

// TestRunNetworksOverWorkers: the run's networks as its evaluation plays
// them (built in memory by the learner, rebuilt by the workers from the
// checkpoint and the run's config) give over two workers the tournament
// and the gating SPRT of one process, game for game.
func TestRunNetworksOverWorkers(t *testing.T) {
	l, cfg, log := openTestLearner(t)
	_, wait := evalWorkers(t, l, log, 2)
	defer wait()
	ctx, cancel := testBudget(t)
	defer cancel()
	er, err := OpenEval(ctx, l.emb.URL, l.emb.Learner, "run", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer er.Close()
	ps := runPlayers(t, l, cfg, 3, 4)
	setup := evaluate.Setup{Rules: "urim4", MaxPlies: 60, Seed: 11, OpeningPlies: 2, Paired: true, Workers: 2}
	tc := evaluate.Config{Agents: []evaluate.Player{ps[0], {Spec: "random"}}, Games: 4, Setup: setup}
	local, err := evaluate.RunTournament(ctx, tc)
	if err != nil {
		t.Fatal(err)
	}
	tc.Remote = er
	remote, err := evaluate.RunTournament(ctx, tc)
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if !reflect.DeepEqual(local.Games, remote.Games) || !reflect.DeepEqual(local.Ratings, remote.Ratings) {
		t.Fatal("the rating over two workers differs from the one in one process")
	}
	sc := evaluate.SPRTConfig{Setup: setup, A: ps[1], B: ps[0], Test: evaluate.SPRT{Elo0: 0, Elo1: 20}, MaxGames: 40}
	lsprt, err := evaluate.RunSPRT(ctx, sc)
	if err != nil {
		t.Fatal(err)
	}
	sc.Remote = er
	rsprt, err := evaluate.RunSPRT(ctx, sc)
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if rsprt.Decision != lsprt.Decision || rsprt.LLR != lsprt.LLR || !reflect.DeepEqual(lsprt.Games, rsprt.Games) {
		t.Fatalf("the SPRT over two workers (%s, %d games) differs from the one in one process (%s, %d games)",
			rsprt.Decision, len(rsprt.Games), lsprt.Decision, len(lsprt.Games))
	}
}
