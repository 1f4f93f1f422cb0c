package capi

import (
	"github.com/urim-rl/urim/bench"
	"github.com/urim-rl/urim/env"
)

// BenchVec is the Go side of `python -m urim.bench`: bench.Vec, the
// benchmark behind `urim bench env`, on n games of rules with one worker
// for about steps game steps (random legal actions drawn in Go, compact
// observations). It returns game steps per second.
func BenchVec(rules string, n int, steps int64) (float64, error) {
	r, err := env.FindRules(orDefault(rules, "urim"))
	if err != nil {
		return 0, err
	}
	g, err := env.NewGame(r)
	if err != nil {
		return 0, err
	}
	res, err := bench.Vec(g, n, 1, bench.EnvOptions{Steps: steps})
	if err != nil {
		return 0, err
	}
	return res.StepsPerSec, nil
}
