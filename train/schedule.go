package train

import "math"

// LR returns the learning rate of iteration it: optimizer.schedule runs
// over the planned iterations (or, with only a time budget, over the time
// spent), and the rate is constant within an iteration.
func (s *Session) LR(it int) float64 {
	o := s.Config.Optimizer
	progress := math.Min(math.Max(s.ProgressOf(it), 0), 1)
	switch o.Schedule {
	case "cosine":
		return o.LRMin + 0.5*(o.LR-o.LRMin)*(1+math.Cos(math.Pi*progress))
	case "step":
		switch {
		case progress >= 0.75:
			return o.LR * 0.01
		case progress >= 0.5:
			return o.LR * 0.1
		}
	}
	return o.LR
}
