package main

import (
	"flag"
	"sort"
	"strings"
)

// benchCommands are the children of "urim bench"; each registers itself from
// its own file with registerBench.
var benchCommands = map[string]*command{}

func registerBench(c *command) { benchCommands[c.name] = c }

func init() {
	register(&command{
		name:  "bench",
		usage: "<engine|env|mcts|...> [flags]",
		short: "measure speed: engine moves, environment steps, search simulations",
		long: `Runs a speed benchmark and prints a table (or JSON with --json).

Examples:
  urim bench engine --rules oware
  urim bench engine --rules urim --json`,
		sub: func(string) bool { return true },
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			return func(io *stdio, args []string) error {
				if len(args) == 0 {
					return usageErrorf("name a benchmark: %s", strings.Join(benchNames(), ", "))
				}
				c, ok := benchCommands[args[0]]
				if !ok {
					return usageErrorf("unknown benchmark %q (known: %s)", args[0], strings.Join(benchNames(), ", "))
				}
				if code := runCommand(c, "urim bench "+c.name, args[1:], io); code != 0 {
					return exitCode(code)
				}
				return nil
			}
		},
	})
}

func benchNames() []string {
	var names []string
	for n := range benchCommands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
