// Package all registers every training algorithm with package train:
// import it for its side effect where a run is started (cmd/urim, tests).
package all

import (
	// Each registers itself in init.
	_ "github.com/urim-rl/urim/train/alphazero"
	_ "github.com/urim-rl/urim/train/ppo"
)
