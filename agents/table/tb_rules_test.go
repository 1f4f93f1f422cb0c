package table_test

import (
	"errors"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/tablebase"
	"github.com/urim-rl/urim/tablebase/tbtest"
)

// TestTableRulesMismatch: an agent with a table for other rules refuses a
// position of another game at its first move, whether the table plays
// (tb), scores positions (alphabeta) or values leaves (mcts), rather than
// playing on without it.
func TestTableRulesMismatch(t *testing.T) {
	path, _ := tbtest.File(t, env.Urim, 2)
	s := env.MustGame(env.Urim4).Start()
	for _, spec := range []string{"alphabeta:depth=2,tb=" + path, "mcts:sims=20,tb=" + path, "mcts:sims=20,threads=2,tb=" + path, "tb:file=" + path + ",fallback=random"} {
		a, err := agents.New(spec, 1)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if _, err := a.Act(&s); !errors.Is(err, tablebase.ErrMismatch) {
			t.Errorf("%s under urim4 with a urim table: Act error %v, want ErrMismatch", spec, err)
		}
	}
}
