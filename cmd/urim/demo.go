package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/urim-rl/urim/agents"
)

func init() {
	register(&command{
		name:  "demo",
		usage: "[--rules PRESET] [--south SPEC] [--north SPEC] [--seed N] [--position NOTATION]",
		short: "watch two agents play one game, move by move",
		long: `Plays one game between two agents and draws the board after every move, with
what each searching agent thought of its move, then the result and the moves
as a 'urim replay' command: a quick look at what the agents do ('urim play'
plays one yourself, 'urim train' trains one).

Examples:
  urim demo
  urim demo --south mcts:sims=5000 --north alphabeta:depth=10 --seed 7
  urim demo --rules oware --south greedy --north random`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			o := &demoOptions{rules: rulesFlag(fs)}
			fs.StringVar(&o.sides[0], "south", "mcts:sims=2000", "agent spec of South, who moves first")
			fs.StringVar(&o.sides[1], "north", "alphabeta:depth=8", "agent spec of North")
			fs.Uint64Var(&o.seed, "seed", 1, "seed of both agents")
			fs.StringVar(&o.position, "position", "", "start from this position (notation, see docs/rules.md)")
			return func(io *stdio, args []string) error {
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q", args)
				}
				return runDemo(io, o)
			}
		},
	})
}

// demoOptions are the flags of urim demo.
type demoOptions struct {
	rules    *string
	sides    [2]string // the agent specs of South and North
	seed     uint64
	position string
}

// runDemo plays one game between the two agents, drawing every move.
func runDemo(io *stdio, o *demoOptions) error {
	// No one types: the session reads nothing.
	p, err := newPlaySession(*o.rules, o.position, strings.NewReader(""), io.out)
	if err != nil {
		return err
	}
	for side, spec := range o.sides {
		// The sides get different seeds, so two copies of one randomised
		// agent do not mirror each other.
		a, err := agents.New(spec, o.seed+uint64(side))
		if err != nil {
			return usageErrorf("--%s: %v", strings.ToLower(sideName(side)), err)
		}
		defer agents.Close(a)
		p.agents[side] = a
		p.names[side] = fmt.Sprintf("%s (%s)", sideName(side), spec)
	}
	fmt.Fprintf(io.out, "Urim, %s rules: %s against %s (seed %d).\n", p.g.Name(), p.names[0], p.names[1], o.seed)
	return p.run()
}
