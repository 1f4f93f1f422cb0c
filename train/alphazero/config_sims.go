package alphazero

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/urim-rl/urim/train"
)

// Sims is search.sims: the simulations of a full search, one number for
// the whole run or a schedule over its iterations (progressive
// simulation, as MiniZero): a mapping with steps (iteration: sims, each
// from that iteration on; iterations before the first take the first's),
// or with from and to (linear over stop.iterations, rounded). Written as a
// plain number it is constant.
//
//	sims: 64
//	sims: {steps: {1: 16, 10: 32, 20: 64}}
//	sims: {from: 16, to: 64}
type Sims struct {
	// N is the constant count (0 when the run has a schedule).
	N int `yaml:"-"`
	// Steps maps an iteration (from 1) to the simulations from it on.
	Steps map[int]int `yaml:"steps,omitempty"`
	// From and To ramp linearly from iteration 1 to stop.iterations.
	From int `yaml:"from,omitempty"`
	To   int `yaml:"to,omitempty"`
}

// ConstSims is a constant search.sims.
func ConstSims(n int) Sims { return Sims{N: n} }

// UnmarshalYAML reads a number or a schedule mapping.
func (s *Sims) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		v, err := strconv.Atoi(strings.TrimSpace(n.Value))
		if err != nil {
			// yaml.v3's own form, which the strict decoder turns into
			// file:line: key: problem.
			return fmt.Errorf("line %d: want an integer, got %q (or a schedule: {steps: {1: 16, 10: 64}} or {from: 16, to: 64})", n.Line, n.Value)
		}
		*s = Sims{N: v}
		return nil
	}
	type plain Sims
	var q plain
	if err := n.Decode(&q); err != nil {
		return err
	}
	*s = Sims(q)
	return nil
}

// MarshalYAML writes a constant as its number, a schedule as its mapping.
func (s Sims) MarshalYAML() (any, error) {
	if s.Scheduled() {
		type plain Sims
		return plain(s), nil
	}
	return s.N, nil
}

// String returns the count, or the schedule as its YAML flow mapping.
func (s Sims) String() string {
	if !s.Scheduled() {
		return strconv.Itoa(s.N)
	}
	if len(s.Steps) > 0 {
		keys := make([]int, 0, len(s.Steps))
		for k := range s.Steps {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%d: %d", k, s.Steps[k])
		}
		return "{steps: {" + strings.Join(parts, ", ") + "}}"
	}
	return fmt.Sprintf("{from: %d, to: %d}", s.From, s.To)
}

// Scheduled reports whether the simulations change over the run.
func (s Sims) Scheduled() bool { return len(s.Steps) > 0 || s.From > 0 || s.To > 0 }

// At returns the simulations of iteration it (from 1) of a run of
// iterations iterations (stop.iterations; used by from/to only).
func (s Sims) At(it, iterations int) int {
	switch {
	case len(s.Steps) > 0:
		keys := make([]int, 0, len(s.Steps))
		for k := range s.Steps {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		n := s.Steps[keys[0]]
		for _, k := range keys {
			if k <= it {
				n = s.Steps[k]
			}
		}
		return n
	case s.From > 0 || s.To > 0:
		if iterations <= 1 {
			return s.To
		}
		f := float64(min(max(it, 1), iterations)-1) / float64(iterations-1)
		return int(math.Round(float64(s.From) + f*float64(s.To-s.From)))
	}
	return s.N
}

// Max returns the most simulations of any iteration.
func (s Sims) Max() int {
	switch {
	case len(s.Steps) > 0:
		m := 0
		for _, v := range s.Steps {
			m = max(m, v)
		}
		return m
	case s.From > 0 || s.To > 0:
		return max(s.From, s.To)
	}
	return s.N
}

// checkSims validates search.sims, s, in a run of iterations iterations
// (stop.iterations).
func checkSims(s Sims, iterations int) error {
	switch {
	case len(s.Steps) > 0 && (s.From > 0 || s.To > 0):
		return train.ConfigErrorf("search.sims", "both steps and from/to: give one schedule")
	case len(s.Steps) > 0:
		for it, n := range s.Steps {
			if it < 1 || it > 1<<30 {
				return train.ConfigErrorf("search.sims.steps", "iteration %d: want 1 or more", it)
			}
			if err := train.IntRange(fmt.Sprintf("search.sims.steps.%d", it), n, 1, train.MaxSims); err != nil {
				return err
			}
		}
	case s.From > 0 || s.To > 0:
		if err := train.IntRange("search.sims.from", s.From, 1, train.MaxSims); err != nil {
			return err
		}
		if err := train.IntRange("search.sims.to", s.To, 1, train.MaxSims); err != nil {
			return err
		}
		if iterations == 0 {
			return train.ConfigErrorf("search.sims", "from/to ramps over stop.iterations, which is 0 (a time-only run): give steps instead")
		}
	default:
		return train.IntRange("search.sims", s.N, 1, train.MaxSims)
	}
	return nil
}
