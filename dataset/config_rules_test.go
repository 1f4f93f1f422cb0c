package dataset

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// An agent or opponent whose network is for other rules than the self-play
// games is a config error named by its key, before any game is played.
func TestConfigRefusesNetworkForOtherRules(t *testing.T) {
	net, err := nn.New(nn.Arch{Kind: nn.KindMLP, Width: 8, Depth: 1}, env.Oware, env.EncodingCompact, 1)
	if err != nil {
		t.Fatal(err)
	}
	ckpt := filepath.Join(t.TempDir(), "oware.ckpt")
	if err := nn.Save(ckpt, &nn.Checkpoint{Net: net}); err != nil {
		t.Fatal(err)
	}
	spec := "neural:ckpt=" + ckpt
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
