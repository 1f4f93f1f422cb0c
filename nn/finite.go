package nn

import (
	"errors"
	"fmt"
	"math"
)

// ErrNonFinite: a network's weights, or its optimizer's moments, hold NaN or
// ±Inf (a training run that diverged). Save, ExportNPZ and Load refuse such
// a network: it would play and train on garbage without a sign.
var ErrNonFinite = errors.New("nn: non-finite weights")

// CheckFinite returns an error wrapping ErrNonFinite that names the first
// weight of n that is NaN or ±Inf, or nil.
func (n *Net) CheckFinite() error {
	for _, p := range n.params {
		if k, ok := firstNonFinite(p.W); !ok {
			return fmt.Errorf("%w: %s[%d] is %g (and the training that made it diverged)", ErrNonFinite, p.Name, k, p.W[k])
		}
	}
	return nil
}

// checkFinite checks the network and the optimizer's moments of c.
func (c *Checkpoint) checkFinite() error {
	if err := c.Net.CheckFinite(); err != nil {
		return err
	}
	if o := c.Optimizer; o != nil {
		for _, m := range []struct {
			name string
			v    []float32
		}{{"m", o.M}, {"v", o.V}} {
			if k, ok := firstNonFinite(m.v); !ok {
				return fmt.Errorf("%w: the optimizer's moment %s[%d] is %g", ErrNonFinite, m.name, k, m.v[k])
			}
		}
	}
	return nil
}

// firstNonFinite returns the index of the first NaN or ±Inf of v and
// false, or 0 and true when every value is finite.
func firstNonFinite(v []float32) (int, bool) {
	for k, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return k, false
		}
	}
	return 0, true
}
