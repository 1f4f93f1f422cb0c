package agents

import (
	"fmt"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// gameCheck remembers the game a network was made for and checks the games
// of the positions an agent is asked about, cheaply after the first.
type gameCheck struct {
	net  *env.Game // the network's game
	ok   *env.Game // the last game found to be the same
	what string    // the network, for the message: "checkpoint PATH"
}

// check returns an error if s is not a position of the network's game.
func (c *gameCheck) check(s *env.State) error {
	g := s.Game()
	if g == c.ok || g == c.net {
		return nil
	}
	if !g.Rules().SamePlay(c.net.Rules()) {
		return fmt.Errorf("agents: %s was trained for %s (this game's rules)", c.what, c.net.Rules().Mismatch(g.Rules()))
	}
	c.ok = g
	return nil
}

// netGame returns the game a network was made for.
func netGame(net nn.Model) *env.Game {
	g, err := env.NewGame(net.Rules())
	if err != nil { // nn validated the rules when it made or loaded the network
		panic(fmt.Sprintf("agents: a network for invalid rules: %v", err))
	}
	return g
}
