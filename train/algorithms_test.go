package train_test

// The config tests validate every shipped config, so the test binary
// registers every algorithm, as cmd/urim does.
import (
	_ "github.com/urim-rl/urim/train/all"

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)
