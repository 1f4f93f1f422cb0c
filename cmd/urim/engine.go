package main

import (
	"flag"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
)

func init() {
	register(&command{
		name:  "engine",
		usage: "[--seed N] AGENT",
		short: "serve an agent over the urim line protocol on standard input and output",
		long: `Serves the agent given by its spec over the line protocol of docs/protocol.md,
so that GUIs and programs in other languages can play it, and so that other
urim processes can use it as an agent: external:cmd='urim engine SPEC'.

Each command line read from standard input gets exactly one reply line:
"ok ...", "bestmove A ..." or "error ...". The session:

  urim 1                       -> ok urim 1 SPEC
  rules urim                   -> ok          (a preset, or key=value pairs)
  newgame seed=7               -> ok          (the agent is rebuilt with seed 7)
  position startpos            -> ok {...}    (or a position in urim notation; the state as JSON)
  moves 2 3                    -> ok {...}    (play actions; the state as urim replay's JSON)
  legal                        -> ok 0 1 3 4 5 (the legal actions of the player to move)
  go                           -> bestmove 4 value=... depth=... nodes=...
  go sims=400                  -> bestmove 1  (key=value overrides agent parameters)
  quit                         -> ok bye

Agents:
` + agents.Help() + `
Examples:
  urim engine mcts:sims=800
  printf 'urim 1\nnewgame\ngo\nquit\n' | urim engine greedy
  urim match "external:cmd='urim engine alphabeta:depth=6'" random`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			seed := fs.Uint64("seed", 1, "seed of the agent at the start (the n-th newgame without a seed uses seed+n)")
			return func(io *stdio, args []string) error {
				if len(args) != 1 {
					return usageErrorf("want one agent spec, got %d (%q)", len(args), args)
				}
				if err := agents.Validate(args[0]); err != nil {
					return usageErrorf("%v", err)
				}
				return classic.Serve(io.in, io.out, args[0], *seed)
			}
		},
	})
}
