package main

import (
	"flag"
	"strconv"

	"github.com/urim-rl/urim/env"
)

// trainShortcuts binds the flags other commands share (--rules, --seed,
// --workers, --out and --output) as short forms of --set: each appends its
// override to sets, in the order given with the --set flags, so the last
// word on a key wins.
func trainShortcuts(fs *flag.FlagSet, sets *setFlags) {
	add := func(kv ...string) { *sets = append(*sets, kv...) }
	fs.Func("rules", rulesUsage+"; short for --set rules=PRESET or --set rules_file=FILE", func(v string) error {
		if _, err := env.FindRules(v); err != nil {
			return err
		}
		if env.IsRulesFile(v) {
			add("rules_file=" + strconv.Quote(v))
		} else {
			add("rules="+v, `rules_file=""`)
		}
		return nil
	})
	fs.Func("seed", "short for --set seed=N", func(v string) error { add("seed=" + v); return nil })
	fs.Func("workers", "short for --set workers=N (0: one per core)", func(v string) error { add("workers=" + v); return nil })
	out := func(v string) error { add("output=" + strconv.Quote(v)); return nil }
	fs.Func("out", "short for --set output=DIR, the run directory", out)
	fs.Func("output", "the same as --out", out)
}
