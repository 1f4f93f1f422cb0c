package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
)

func init() {
	register(&command{
		name:  "rules",
		usage: "[--json] [PRESET | FILE.yaml]",
		short: "list the rule presets, or explain one rule by rule",
		long: `Without an argument, lists the presets in one line each. With a preset name,
or a YAML file of custom rules, explains each of its rules. The full rules
are in docs/rules.md.

Examples:
  urim rules
  urim rules oware
  urim rules --json urim7
  urim rules configs/rules/urim5.yaml`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			asJSON := fs.Bool("json", false, "print the rules as JSON")
			return func(io *stdio, args []string) error {
				if len(args) > 1 {
					return usageErrorf("name at most one preset")
				}
				return runRules(io, args, *asJSON)
			}
		},
	})
}

// runRules lists the presets (names empty) or explains the rules of the
// one preset or rules file names holds.
func runRules(io *stdio, names []string, asJSON bool) error {
	one := len(names) == 1
	if !one {
		names = env.PresetNames()
	}
	var list []env.Rules
	for _, n := range names {
		r, err := env.FindRules(n)
		if errors.Is(err, env.ErrUnknownPreset) {
			return usageErrorf("%v", err)
		}
		if err != nil {
			return err
		}
		list = append(list, r)
	}
	if asJSON {
		if one {
			return evaluate.WriteJSON(io.out, list[0])
		}
		return evaluate.WriteJSON(io.out, list)
	}
	if !one {
		for _, r := range list {
			fmt.Fprintln(io.out, r)
		}
		return nil
	}
	explainRules(io.out, list[0])
	return nil
}

// explainRules writes what each rule of r means, one per line.
func explainRules(w io.Writer, r env.Rules) {
	P, T := r.PitsPerRow, r.Total()
	list := func(v []int) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = fmt.Sprint(x)
		}
		return strings.Join(s, ", ")
	}
	kind := "Preset"
	if env.IsRulesFile(r.Name) {
		kind = "Rules"
	}
	fmt.Fprintf(w, "%s %s\n\n", kind, r.Name)
	fmt.Fprintf(w, "board          2 rows of %d pits; South owns pits 0-%d, North %d-%d; sowing goes 0 -> %d -> 0\n", P, P-1, P, 2*P-1, 2*P-1)
	fmt.Fprintf(w, "start          %d seeds in every pit, %d in all; South moves first\n", r.SeedsPerPit, T)
	if r.Capacity > 0 {
		fmt.Fprintf(w, "capacity       a pit never holds more than %d seeds; sowing skips a full pit\n", r.Capacity)
	} else {
		fmt.Fprintf(w, "capacity       none\n")
	}
	fmt.Fprintf(w, "sowing         all seeds of one own pit, one per pit forward; a lap never refills the origin\n")
	fmt.Fprintf(w, "trigger        the last seed making %s in an opponent's pit captures it\n", list(r.Trigger))
	if len(r.Chain) > 0 {
		fmt.Fprintf(w, "chain          then the pits before it in the opponent's row are taken while they hold %s\n", list(r.Chain))
	} else {
		fmt.Fprintf(w, "chain          none: a capture takes the triggering pit only\n")
	}
	if r.GrandSlam == env.GrandSlamCapture {
		fmt.Fprintf(w, "grand slam     a capture that empties the opponent's row stands\n")
	} else {
		fmt.Fprintf(w, "grand slam     a move that would empty the opponent's row is legal but captures nothing\n")
	}
	fmt.Fprintf(w, "feeding        if the opponent's row is empty, only moves that sow into it are legal\n")
	fmt.Fprintf(w, "end            no legal move for the player to move, or a position repeated since the last capture")
	if r.EndOnMajority {
		fmt.Fprintf(w, ",\n               or a store above %d (or both at %d)", T/2, T/2)
	}
	if r.MaxPlies > 0 {
		fmt.Fprintf(w, ",\n               or %d plies (truncated)", r.MaxPlies)
	}
	fmt.Fprintf(w, "; seeds left go to their row's owner\n")
	fmt.Fprintf(w, "match points   2 for the winner with at least %d seeds, otherwise 1 (more than %d); 0 for the loser and in a draw\n", (3*T+3)/4, T/2)
}
