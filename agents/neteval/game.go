package neteval

import (
	"fmt"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// Game returns the game a network was made for.
func Game(net nn.Model) *env.Game {
	g, err := env.NewGame(net.Rules())
	if err != nil { // nn validated the rules when it made or loaded the network
		panic(fmt.Sprintf("neteval: a network for invalid rules: %v", err))
	}
	return g
}
