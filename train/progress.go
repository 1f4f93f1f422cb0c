package train

import (
	"fmt"
	"time"
)

// Progress returns a callback for done of total units, reported on
// Options.Progress (a bar on a terminal, plain lines otherwise). The bars
// are transient: a finished one is erased, so an iteration leaves only its
// summary line.
func (s *Session) Progress(desc, unit string) func(done, total int) {
	return s.opt.Progress.Transient().Func(desc, unit)
}

// Iter labels the progress of iteration it: "iter 41/300" (of
// stop.iterations; "iter 41" without), and once an iteration of this
// session is done, the time the run is expected to take still, from this
// session's mean iteration and capped by what stop.time leaves: "iter
// 41/300, ETA 4m10s".
func (s *Session) Iter(it int) string {
	label := fmt.Sprintf("iter %d", it)
	stop := s.Config.Stop
	if stop.Iterations > 0 {
		label = fmt.Sprintf("iter %d/%d", it, stop.Iterations)
	}
	done := it - s.first
	if s.first == 0 || done <= 0 {
		return label
	}
	left := time.Duration(-1)
	if stop.Iterations > 0 {
		per := time.Since(s.start) / time.Duration(done)
		left = per * time.Duration(stop.Iterations-it+1)
	}
	if b := stop.Time.Std(); b > 0 {
		budget := b - time.Duration(s.Elapsed()*float64(time.Second))
		if left < 0 || budget < left {
			left = max(budget, 0)
		}
	}
	if left < 0 {
		return label
	}
	return fmt.Sprintf("%s, ETA %s", label, roundETA(left))
}

// roundETA rounds a time left for display: seconds under ten minutes,
// minutes above.
func roundETA(d time.Duration) time.Duration {
	if d >= 10*time.Minute {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}
