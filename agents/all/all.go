// Package all registers every agent kind with package agents: import it for
// its side effect where specs are built (cmd/urim, the front ends, tests).
package all

import (
	// Each registers its agents in init.
	_ "github.com/urim-rl/urim/agents/classic"
	_ "github.com/urim-rl/urim/agents/network"
	_ "github.com/urim-rl/urim/agents/table"
)
