// Command urim is the command-line front end of the urim toolkit: rules,
// replays, play in the terminal, matches, tournaments and benchmarks.
package main

import (
	"os"

	_ "github.com/urim-rl/urim/agents/all" // every agent kind, for the specs given
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
