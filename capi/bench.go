package capi

import (
	"github.com/urim-rl/urim/env"
)

// BenchVec is the Go side of `python -m urim.bench`: the loop of bench.Vec
// (the benchmark behind `urim bench env`: env.RandomActions, then Step, on
// one worker, compact observations, after 200 warm-up steps) on n games of
// rules for about steps game steps. It returns game steps per second of the
// process's CPU time, the clock the Python side reads too, so that the
// ratio holds on a machine other jobs load.
func BenchVec(rules string, n int, steps int64) (float64, error) {
	r, err := env.FindRules(orDefault(rules, "urim"))
	if err != nil {
		return 0, err
	}
	g, err := env.NewGame(r)
	if err != nil {
		return 0, err
	}
	v, err := env.NewVec(g, n, env.VecOptions{Workers: 1, Seed: 1})
	if err != nil {
		return 0, err
	}
	defer v.Close()
	actions := make([]int32, n)
	rng := uint64(0x9E3779B97F4A7C15)
	step := func() {
		env.RandomActions(actions, v.Legal(), &rng)
		if err := v.Step(actions); err != nil {
			panic(err) // RandomActions only draws legal actions
		}
		v.ClearEpisodes()
	}
	for range 200 {
		step()
	}
	batches := max(1, (steps+int64(n)-1)/int64(n))
	start := cpuSeconds()
	for range batches {
		step()
	}
	return float64(batches*int64(n)) / (cpuSeconds() - start), nil
}
