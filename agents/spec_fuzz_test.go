package agents

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// FuzzSpec checks spec strings: parsing and checking never panic, a
// parameter given twice is refused, and no accepted spec holds a number
// that is not finite (NaN passes every range check written as
// x < lo || x > hi).
func FuzzSpec(f *testing.F) {
	for _, s := range []string{"random", "mcts:sims=10,c=1.4", "mcts:c=NaN", "mcts:c=+Inf", "mcts:c=-inf",
		"mcts:c=1e400", "mcts:sims=0", "mcts:sims=0,time=1s", "alphabeta:depth=3,depth=4", "greedy:x=1",
		"mcts:c=0x1p-2", "external:cmd='a,b',timeout=1s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		sp, err := ParseSpec(spec)
		if err != nil {
			return
		}
		if err := Validate(spec); err != nil || sp.Name == "external" {
			return // external's parameters are strings: cmd=inf names a program
		}
		for k, v := range sp.Params {
			x, perr := strconv.ParseFloat(v, 64)
			if (perr == nil || strings.Contains(strings.ToLower(v), "inf")) && (math.IsNaN(x) || math.IsInf(x, 0)) {
				t.Fatalf("%q accepted with %s=%s", spec, k, v)
			}
		}
	})
}
