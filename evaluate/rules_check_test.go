package evaluate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn/nntest"
)

// A network trained for other rules is refused when the tournament or the
// SPRT test is checked, before any game is played, and the error names both
// rules.
func TestCheckpointForOtherRulesRefusedBeforePlay(t *testing.T) {
	spec := "neural:ckpt=" + nntest.Checkpoint(t, env.Oware, 8, 1)
	wantNamed := func(what string, err error) {
		t.Helper()
		if err == nil || !errors.Is(err, agents.ErrSpec) || !strings.Contains(err.Error(), "urim") || !strings.Contains(err.Error(), "oware") {
			t.Errorf("%s: %v, want a spec error naming urim and oware", what, err)
		}
	}
	cfg := Config{Setup: Setup{Rules: "urim", Seed: 1, Workers: 1}, Games: 2,
		Agents: []Player{{Spec: spec}, {Spec: "random"}}}
	res, err := RunTournament(context.Background(), cfg)
	wantNamed("tournament", err)
	if res != nil {
		t.Errorf("tournament played: %+v", res)
	}
	_, err = RunSPRT(context.Background(), SPRTConfig{Setup: Setup{Rules: "urim", Seed: 1, Workers: 1},
		A: Player{Spec: spec}, B: Player{Spec: "random"}, MaxGames: 2, Test: SPRT{Elo0: 0, Elo1: 50}})
	wantNamed("SPRT", err)

	// The same network is fine for its own rules, and Validate alone
	// (no game) does not read the checkpoint.
	cfg.Setup.Rules = "oware"
	if err := cfg.Validate(); err != nil {
		t.Errorf("oware network in an oware tournament: %v", err)
	}
	if err := agents.Validate(spec); err != nil {
		t.Errorf("Validate: %v", err)
	}
}
