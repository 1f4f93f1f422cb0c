package agents

import (
	"fmt"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// netGame returns the game a network was made for.
func netGame(net nn.Model) *env.Game {
	g, err := env.NewGame(net.Rules())
	if err != nil { // nn validated the rules when it made or loaded the network
		panic(fmt.Sprintf("agents: a network for invalid rules: %v", err))
	}
	return g
}
