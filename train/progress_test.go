package train

import (
	"strings"
	"testing"
	"time"
)

// TestIterLabel: an iteration's progress names the total and, once this
// session has timed an iteration, the run's time left, capped by stop.time.
func TestIterLabel(t *testing.T) {
	cfg := Config{}
	cfg.Stop.Iterations = 300
	s := &Session{Config: &cfg, first: 1, start: time.Now().Add(-40 * time.Second)}
	if got := s.Iter(1); got != "iter 1/300" {
		t.Errorf("first iteration: %q", got)
	}
	// 40 iterations in 40 s: 260 left at about a second each.
	if got := s.Iter(41); !strings.HasPrefix(got, "iter 41/300, ETA 4m2") {
		t.Errorf("iteration 41: %q, want about 4m20s left", got)
	}
	cfg.Stop.Time = Duration(2 * time.Minute)
	if got := s.Iter(41); !strings.HasPrefix(got, "iter 41/300, ETA 1m") {
		t.Errorf("with a 2m budget, 40 s spent: %q, want about 1m20s", got)
	}
	cfg.Stop.Iterations = 0
	if got := s.Iter(41); !strings.HasPrefix(got, "iter 41, ETA 1m") {
		t.Errorf("a time budget alone: %q", got)
	}
}
