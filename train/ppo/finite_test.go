package ppo

import (
	"math"
	"strings"
	"testing"
)

// TestRolloutCheckFinite: a NaN or an infinity in a trained row of a PPO
// rollout is found and named by its step and game.
func TestRolloutCheckFinite(t *testing.T) {
	ro := newRollout(2, 3, 4, 3)
	rows := []int32{0, 1, 2, 3, 4, 5}
	if err := ro.checkFinite(rows); err != nil {
		t.Fatal(err)
	}
	ro.adv[5] = float32(math.NaN())
	if err := ro.checkFinite(rows); err == nil || !strings.Contains(err.Error(), "step 2 of game 1") || !strings.Contains(err.Error(), "advantage") {
		t.Errorf("NaN advantage: %v", err)
	}
	ro.adv[5] = 0
	ro.obs[1*4+2] = float32(math.Inf(-1))
	if err := ro.checkFinite(rows); err == nil || !strings.Contains(err.Error(), "observation column 2") {
		t.Errorf("-Inf observation: %v", err)
	}
}
