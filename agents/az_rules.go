package agents

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/urim-rl/urim/env"
)

// sameRules reports whether a and b play the same game: every field but the
// informational Name agrees, the count lists as sets.
func sameRules(a, b env.Rules) bool {
	set := func(v []int) []int {
		if len(v) == 0 {
			return nil
		}
		v = slices.Clone(v)
		slices.Sort(v)
		return slices.Compact(v)
	}
	a.Name, b.Name = "", ""
	a.Trigger, b.Trigger = set(a.Trigger), set(b.Trigger)
	a.Chain, b.Chain = set(a.Chain), set(b.Chain)
	return reflect.DeepEqual(a, b)
}

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
	if !sameRules(g.Rules(), c.net.Rules()) {
		return fmt.Errorf("agents: %s was trained for the rules %s (%s), not for this game's %s (%s)",
			c.what, c.net.Name(), c.net.Rules(), g.Name(), g.Rules())
	}
	c.ok = g
	return nil
}
