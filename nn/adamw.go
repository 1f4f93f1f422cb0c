package nn

import (
	"fmt"
	"math"
)

// AdamW holds the hyper-parameters of the AdamW optimizer (Adam with weight
// decay decoupled from the gradient). The learning rate comes from a
// Schedule. Zero fields take the defaults: Beta1 0.9, Beta2 0.999, Eps 1e-8;
// a zero WeightDecay means no decay. Decay applies to the matrices only, not
// to biases or layer-norm gains.
type AdamW struct {
	Beta1       float64 `yaml:"beta1" json:"beta1"`
	Beta2       float64 `yaml:"beta2" json:"beta2"`
	Eps         float64 `yaml:"eps" json:"eps"`
	WeightDecay float64 `yaml:"weight_decay" json:"weight_decay"`
}

func (a AdamW) withDefaults() AdamW {
	if a.Beta1 == 0 {
		a.Beta1 = 0.9
	}
	if a.Beta2 == 0 {
		a.Beta2 = 0.999
	}
	if a.Eps == 0 {
		a.Eps = 1e-8
	}
	return a
}

func (a AdamW) validate() error {
	ok := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case !ok(a.Beta1) || a.Beta1 < 0 || a.Beta1 >= 1:
		return fmt.Errorf("nn: AdamW beta1 %v is outside [0, 1)", a.Beta1)
	case !ok(a.Beta2) || a.Beta2 < 0 || a.Beta2 >= 1:
		return fmt.Errorf("nn: AdamW beta2 %v is outside [0, 1)", a.Beta2)
	case !ok(a.Eps) || a.Eps < 0:
		return fmt.Errorf("nn: AdamW eps %v is negative or not finite", a.Eps)
	case !ok(a.WeightDecay) || a.WeightDecay < 0:
		return fmt.Errorf("nn: AdamW weight decay %v is negative or not finite", a.WeightDecay)
	}
	return nil
}
