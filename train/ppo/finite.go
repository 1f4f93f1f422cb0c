package ppo

import (
	"fmt"
	"math"
)

// checkFinite returns an error naming the first trained row of the rollout
// (step t of game i) whose observation, log-probability, value, advantage
// or return is NaN or ±Inf, or nil: PPO's counterpart of Buffer.checkFinite.
func (ro *rollout) checkFinite(rows []int32) error {
	bad := func(x float32) bool { return math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) }
	for _, r := range rows {
		k := int(r)
		field := ""
		for c, x := range ro.obs[k*ro.dim : (k+1)*ro.dim] {
			if bad(x) {
				field = fmt.Sprintf("observation column %d is %g", c, x)
				break
			}
		}
		for _, f := range []struct {
			name string
			x    float32
		}{{"log-probability", ro.logp[k]}, {"value", ro.value[k]}, {"advantage", ro.adv[k]}, {"return", ro.ret[k]}} {
			if field == "" && bad(f.x) {
				field = fmt.Sprintf("%s is %g", f.name, f.x)
			}
		}
		if field != "" {
			return fmt.Errorf("train: PPO rollout row %d (step %d of game %d): the %s, not a finite number", k, k/ro.n, k%ro.n, field)
		}
	}
	return nil
}
