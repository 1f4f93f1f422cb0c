package nn

import (
	"fmt"
	"math"
)

// Learning-rate schedule kinds.
const (
	ScheduleConstant = "constant" // LR throughout
	ScheduleStep     = "step"     // LR·Gamma^⌊step/Every⌋
	ScheduleCosine   = "cosine"   // from LR down to MinLR along a half cosine over Steps
	// ScheduleMilestones is LR·Gamma^k, k the number of Milestones at or
	// before the step.
	ScheduleMilestones = "milestones"
)

// Schedule gives the learning rate of each training step. Every kind starts
// with a linear warm-up over Warmup steps (from LR/Warmup up to LR); the
// kind's curve then runs on the steps after the warm-up. The zero value is a
// constant rate of 1e-3.
type Schedule struct {
	// Kind is ScheduleConstant (the default when empty), ScheduleStep or
	// ScheduleCosine.
	Kind string `yaml:"kind" json:"kind"`
	// LR is the peak learning rate; 0 means 1e-3.
	LR float64 `yaml:"lr" json:"lr"`
	// Warmup is the number of warm-up steps (0: none).
	Warmup int64 `yaml:"warmup" json:"warmup"`
	// Every and Gamma make the step schedule: multiply by Gamma every Every
	// steps.
	Every int64   `yaml:"every" json:"every"`
	Gamma float64 `yaml:"gamma" json:"gamma"`
	// Steps is the length of the cosine after the warm-up; it stays at MinLR
	// afterwards.
	Steps int64 `yaml:"steps" json:"steps"`
	// MinLR is the cosine's floor.
	MinLR float64 `yaml:"min_lr" json:"min_lr"`
	// Milestones are the steps (after the warm-up) at which the
	// milestones schedule multiplies the rate by Gamma, in increasing
	// order.
	Milestones []int64 `yaml:"milestones,omitempty" json:"milestones,omitempty"`
}

// Validate reports the first problem with s, or nil.
func (s Schedule) Validate() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	if !finite(s.LR) || s.LR < 0 || !finite(s.MinLR) || s.MinLR < 0 || !finite(s.Gamma) || s.Gamma < 0 {
		return fmt.Errorf("nn: schedule: lr %v, min_lr %v and gamma %v must be finite and not negative", s.LR, s.MinLR, s.Gamma)
	}
	if s.Warmup < 0 {
		return fmt.Errorf("nn: schedule: warmup %d is negative", s.Warmup)
	}
	switch s.Kind {
	case "", ScheduleConstant:
	case ScheduleStep:
		if s.Every < 1 || s.Gamma <= 0 {
			return fmt.Errorf("nn: step schedule needs every ≥ 1 (got %d) and gamma > 0 (got %v)", s.Every, s.Gamma)
		}
	case ScheduleCosine:
		if s.Steps < 1 {
			return fmt.Errorf("nn: cosine schedule needs steps ≥ 1 (got %d)", s.Steps)
		}
	case ScheduleMilestones:
		for i, m := range s.Milestones {
			if m < 0 || (i > 0 && m <= s.Milestones[i-1]) {
				return fmt.Errorf("nn: milestones %v: want increasing steps ≥ 0", s.Milestones)
			}
		}
		if s.Gamma <= 0 {
			return fmt.Errorf("nn: milestones schedule needs gamma > 0 (got %v)", s.Gamma)
		}
	default:
		return fmt.Errorf("nn: unknown schedule kind %q (known: %s, %s, %s, %s)", s.Kind, ScheduleConstant, ScheduleStep, ScheduleCosine, ScheduleMilestones)
	}
	return nil
}

// At returns the learning rate of step (counted from 0).
func (s Schedule) At(step int64) float64 {
	lr := s.LR
	if lr == 0 {
		lr = 1e-3
	}
	if step < s.Warmup {
		return lr * float64(step+1) / float64(s.Warmup)
	}
	t := step - s.Warmup
	switch s.Kind {
	case ScheduleStep:
		if s.Every > 0 {
			return lr * math.Pow(s.Gamma, float64(t/s.Every))
		}
	case ScheduleCosine:
		if s.Steps > 0 {
			f := min(float64(t)/float64(s.Steps), 1)
			return s.MinLR + (lr-s.MinLR)*0.5*(1+math.Cos(math.Pi*f))
		}
	case ScheduleMilestones:
		for _, m := range s.Milestones {
			if t >= m {
				lr *= s.Gamma
			}
		}
	}
	return lr
}
