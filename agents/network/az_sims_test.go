package network_test

import (
	"github.com/urim-rl/urim/agents/agenttest"
	"testing"

	"github.com/urim-rl/urim/agents"
)

// TestAZSimsZero: az:sims=0 without a time limit is refused, as mcts
// refuses it, rather than quietly playing 200 simulations; with time it
// means no limit, and sims left out is 200.
func TestAZSimsZero(t *testing.T) {
	ckpt := agenttest.WriteNet(t, t.TempDir(), "urim", false)
	agenttest.SpecError(t, "az:ckpt="+ckpt+",sims=0", `sims="0": want a positive count`)
	for _, spec := range []string{"az:ckpt=" + ckpt, "az:ckpt=" + ckpt + ",sims=0,time=10ms", "az:ckpt=" + ckpt + ",time=10ms"} {
		if _, err := agents.New(spec, 1); err != nil {
			t.Errorf("%s: %v", spec, err)
		}
	}
}
