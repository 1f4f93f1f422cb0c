package classic_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
)

// TestSimsBound: sims beyond MaxSims are refused, naming the bound, in a
// spec, a config and the engine's "go sims=" (the engine used to take
// 2^30 and grow the tree until memory ran out).
func TestSimsBound(t *testing.T) {
	bound := fmt.Sprint(agents.MaxSims)
	for _, spec := range []string{"mcts:sims=1073741824", fmt.Sprintf("mcts:sims=%d", agents.MaxSims+1)} {
		if _, err := agents.New(spec, 1); err == nil || !strings.Contains(err.Error(), bound) {
			t.Errorf("%s: %v, want the bound %s named", spec, err, bound)
		}
	}
	if _, err := classic.NewMCTS(classic.MCTSConfig{Sims: agents.MaxSims + 1}, 1); err == nil || !strings.Contains(err.Error(), bound) {
		t.Errorf("NewMCTS over the bound: %v", err)
	}
	got := serve(t, "mcts:sims=2", "go sims=1073741824\ngo sims=2\n")
	if len(got) != 2 || !strings.HasPrefix(got[0], "error") || !strings.Contains(got[0], bound) || !strings.HasPrefix(got[1], "bestmove") {
		t.Errorf("engine replies %q, want an error naming %s, then a move", got, bound)
	}
	if _, err := agents.New(fmt.Sprintf("mcts:sims=%d", agents.MaxSims), 1); err != nil {
		t.Errorf("sims at the bound: %v", err)
	}
}
