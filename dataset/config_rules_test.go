package dataset

import (
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn/nntest"
)

// An agent or opponent whose network is for other rules than the self-play
// games is a config error named by its key, before any game is played.
func TestConfigRefusesNetworkForOtherRules(t *testing.T) {
	spec := "neural:ckpt=" + nntest.Checkpoint(t, env.Oware, 8, 1)
	for _, c := range []Config{
		{Agent: spec, Games: 2, Out: "d", Rules: "urim"},
		{Agent: "random", Opponent: spec, Games: 2, Out: "d", Rules: "urim"},
	} {
		key := "agent"
		if c.Opponent != "" {
			key = "opponent"
		}
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), key+": ") || !strings.Contains(err.Error(), "oware") {
			t.Errorf("%s for oware in urim games: %v", key, err)
		}
	}
	ok := Config{Agent: spec, Games: 2, Out: "d", Rules: "oware"}
	if err := ok.Validate(); err != nil {
		t.Errorf("oware network in oware games: %v", err)
	}
}
