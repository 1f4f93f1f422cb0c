package train

import (
	"math"
	"testing"
	"time"
)

// The run's learning rate follows optimizer.schedule over its planned
// iterations: cosine from lr to lr_min, step ×0.1 at half and ×0.01 at
// three quarters.
func TestLRSchedule(t *testing.T) {
	at := func(schedule string, it int) float64 {
		cfg := Default()
		cfg.Optimizer.LR, cfg.Optimizer.LRMin, cfg.Optimizer.Schedule = 1, 0.1, schedule
		cfg.Stop = Stop{Iterations: 8}
		s := &Session{Config: &cfg, start: time.Now()}
		return s.LR(it)
	}
	for _, c := range []struct {
		schedule string
		it       int
		want     float64
	}{
		{"constant", 5, 1},
		{"cosine", 1, 1},
		{"cosine", 5, 0.55}, // half way: (1 + 0.1) / 2
		{"cosine", 9, 0.1},
		{"step", 4, 1},
		{"step", 5, 0.1},
		{"step", 6, 0.1},
		{"step", 7, 0.01},
	} {
		if got := at(c.schedule, c.it); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s at iteration %d of 8: %v, want %v", c.schedule, c.it, got, c.want)
		}
	}
}
