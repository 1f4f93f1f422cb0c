package main

import (
	"flag"
	"fmt"
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
		more: func() string {
			var b strings.Builder
			b.WriteString("Benchmarks ('urim bench NAME --help' for each one's flags):\n")
			for _, n := range benchNames() {
				fmt.Fprintf(&b, "  %-10s %s\n", n, benchCommands[n].short)
			}
			return b.String()
		},
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
				return runChild(io, "urim bench", c, args[1:])
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
