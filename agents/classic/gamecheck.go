package classic

import (
	"fmt"

	"github.com/urim-rl/urim/env"
)

// GameCheck remembers the game a network was made for and checks the games
// of the positions an agent is asked about, cheaply after the first.
type GameCheck struct {
	Net  *env.Game // the network's game
	What string    // the network, for the message: "checkpoint PATH"
	ok   *env.Game // the last game found to be the same
}

// Check returns an error if s is not a position of the network's game.
func (c *GameCheck) Check(s *env.State) error {
	g := s.Game()
	if g == c.ok || g == c.Net {
		return nil
	}
	if !g.Rules().SamePlay(c.Net.Rules()) {
		return fmt.Errorf("agents: %s was trained for %s (this game's rules)", c.What, c.Net.Rules().Mismatch(g.Rules()))
	}
	c.ok = g
	return nil
}
