package train

import (
	"math"

	"github.com/urim-rl/urim/nn"
)

// scheduleUnits is the number of steps of the run's learning-rate schedule
// when it runs over a time budget: the run's progress, from 0 to 1, in
// units this fine.
const scheduleUnits = 1 << 30

// LR returns the learning rate of iteration it: optimizer.schedule as an
// nn.Schedule whose steps are the run's progress (the planned iterations,
// or with a time budget the share of it spent), constant within an
// iteration. (The warm-up is the trainer's, in its own steps.)
func (s *Session) LR(it int) float64 {
	o := s.Config.Optimizer
	units := int64(scheduleUnits)
	step := int64(math.Min(math.Max(s.ProgressOf(it), 0), 1) * scheduleUnits)
	if n := s.Config.Stop.Iterations; n > 0 && s.Config.Stop.Time == 0 {
		units, step = int64(n), int64(min(max(it-1, 0), n)) // exact: iteration it-1 of n
	}
	sched := nn.Schedule{Kind: nn.ScheduleConstant, LR: o.LR}
	switch o.Schedule {
	case "cosine":
		sched = nn.Schedule{Kind: nn.ScheduleCosine, LR: o.LR, MinLR: o.LRMin, Steps: units}
	case "step":
		// ×0.1 at half the run, ×0.01 at three quarters (the smallest
		// steps at or past those points).
		sched = nn.Schedule{Kind: nn.ScheduleMilestones, LR: o.LR, Gamma: 0.1,
			Milestones: []int64{(units + 1) / 2, (3*units + 3) / 4}}
	}
	return sched.At(step)
}
