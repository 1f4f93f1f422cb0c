package train

import (
	"errors"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// newSearch returns the lock-step self-play search of an iteration.
func newSearch(net *nn.Net, g *env.Game, enc env.Encoding, cfg *Config, seed uint64) (searcher, error) {
	return nil, errors.New("train: the lock-step search is not available yet")
}
