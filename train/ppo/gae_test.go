package ppo

import (
	"math"
	"testing"
)

// TestPPOAdvantagesByHand checks the per-player GAE on two short games
// worked out by hand (γ = 0.9, λ = 0.8, so γλ = 0.72).
//
// Game 0, the policy in both seats:
//
//	t=0 South v=0.1; t=1 North v=0.2; t=2 South v=0.3, terminated: South +1, North −1
//	t=3 South v=0.4; t=4 North v=0.5, truncated (scored ±0.5, ignored), final position South to move, value 0.6
//	t=5 South v=−0.1; then North to move, value 0.7
//
// Game 1, South the learner, North a pool snapshot, seats swapped after the
// first game:
//
//	t=0 South v=0.2; t=1 North (snapshot); t=2 South v=0.4; t=3 North (snapshot), terminated: South −1, North +1
//	t=4 South (snapshot); t=5 North v=0.3; then South to move, value 0.5
func TestPPOAdvantagesByHand(t *testing.T) {
	ro := newRollout(2, 6, 1, 2)
	type mv struct {
		player      int8
		train       bool
		value       float32
		term, trunc bool
		rew         [2]float32
		boot        float32
	}
	games := [2][6]mv{
		{
			{player: 0, train: true, value: 0.1},
			{player: 1, train: true, value: 0.2},
			{player: 0, train: true, value: 0.3, term: true, rew: [2]float32{1, -1}},
			{player: 0, train: true, value: 0.4},
			{player: 1, train: true, value: 0.5, trunc: true, rew: [2]float32{0.5, -0.5}, boot: 0.6},
			{player: 0, train: true, value: -0.1},
		},
		{
			{player: 0, train: true, value: 0.2},
			{player: 1},
			{player: 0, train: true, value: 0.4},
			{player: 1, term: true, rew: [2]float32{-1, 1}},
			{player: 0},
			{player: 1, train: true, value: 0.3},
		},
	}
	for i, g := range games {
		for s, m := range g {
			k := s*2 + i
			ro.player[k], ro.train[k], ro.value[k] = m.player, m.train, m.value
			ro.term[k], ro.trunc[k], ro.boot[k] = m.term, m.trunc, m.boot
			ro.reward[2*k], ro.reward[2*k+1] = m.rew[0], m.rew[1]
		}
	}
	ro.lastMover = []int8{1, 0}
	ro.lastValue = []float32{0.7, 0.5}
	ro.advantages(0.9, 0.8)

	nan := float32(math.NaN())
	want := [2][6]float32{
		// t=2: 1 − 0.3; t=1: −1 − 0.2 (North's reward of the end, no bootstrap);
		// t=0: 0.9·0.3 − 0.1 + 0.72·0.7.
		// t=4: 0.9·(−0.6) − 0.5 (North bootstraps from −0.6, the reward ignored);
		// t=3: 0.9·0.6 − 0.4; t=5: 0.9·(−0.7) + 0.1.
		{0.17 + 0.72*0.7, -1.2, 0.7, 0.14, -1.04, -0.53},
		// t=5: 0.9·(−0.5) − 0.3; t=2: −1 − 0.4; t=0: 0.9·0.4 − 0.2 + 0.72·(−1.4).
		{0.16 - 0.72*1.4, nan, -1.4, nan, nan, -0.75},
	}
	for i := range want {
		for s, w := range want[i] {
			k := s*2 + i
			if w != w {
				if ro.adv[k] != 0 || ro.ret[k] != 0 {
					t.Errorf("game %d step %d (a snapshot's move): advantage %v, return %v, want none", i, s, ro.adv[k], ro.ret[k])
				}
				continue
			}
			if math.Abs(float64(ro.adv[k]-w)) > 1e-6 {
				t.Errorf("game %d step %d: advantage %v, want %v", i, s, ro.adv[k], w)
			}
			if r := w + ro.value[k]; math.Abs(float64(ro.ret[k]-r)) > 1e-6 {
				t.Errorf("game %d step %d: return %v, want %v", i, s, ro.ret[k], r)
			}
		}
	}
}

// With γ = λ = 1 and a game that the rules end, every move's return is the
// mover's result.
func TestPPOReturnsAreResults(t *testing.T) {
	ro := newRollout(1, 5, 1, 2)
	for s := 0; s < 5; s++ {
		ro.player[s], ro.train[s], ro.value[s] = int8(s%2), true, float32(s)/10
	}
	ro.term[4] = true
	ro.reward[8], ro.reward[9] = -0.5, 0.5 // North wins by half a match point
	ro.advantages(1, 1)
	for s := 0; s < 5; s++ {
		want := float32(-0.5)
		if s%2 == 1 {
			want = 0.5
		}
		if math.Abs(float64(ro.ret[s]-want)) > 1e-6 {
			t.Errorf("step %d (player %d): return %v, want %v", s, s%2, ro.ret[s], want)
		}
	}
}

func TestExplainedVariance(t *testing.T) {
	ro := newRollout(1, 4, 1, 2)
	for k := range 4 {
		ro.train[k] = true
		ro.ret[k] = float32(k)
		ro.value[k] = float32(k)
	}
	if ev := ro.explainedVariance(); ev != 1 {
		t.Errorf("perfect values: explained variance %v, want 1", ev)
	}
	clear(ro.value)
	if ev := ro.explainedVariance(); math.Abs(ev) > 1e-9 {
		t.Errorf("zero values: explained variance %v, want 0", ev)
	}
}
