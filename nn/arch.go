package nn

import (
	"fmt"
)

// Architecture kinds.
const (
	// KindMLP is a plain multilayer perceptron: Depth hidden layers of Width
	// units, each Linear, then LayerNorm when enabled, then ReLU.
	KindMLP = "mlp"
	// KindResMLP is a residual MLP: a Linear stem to Width units, then Depth
	// pre-activation blocks h + Linear(ReLU(Norm(Linear(ReLU(Norm(h)))))),
	// then ReLU(Norm(h)) before the heads. Norm is LayerNorm when enabled and
	// the identity otherwise.
	KindResMLP = "resmlp"
)

// MaxWidth and MaxDepth bound an architecture, so that a corrupt or hostile
// checkpoint header cannot ask for gigabytes.
const (
	MaxWidth = 4096
	MaxDepth = 64
)

// Arch describes the trunk of a policy-value network. The heads are fixed: a
// Linear policy head with one logit per action and a Linear value head
// followed by tanh.
type Arch struct {
	// Kind is KindMLP or KindResMLP; empty means KindMLP.
	Kind string `json:"kind"`
	// Width is the number of units of every hidden layer (1 to MaxWidth).
	Width int `json:"width"`
	// Depth is the number of hidden layers (mlp) or residual blocks (resmlp),
	// 1 to MaxDepth.
	Depth int `json:"depth"`
	// LayerNorm adds a layer normalisation (with gain and bias) before every
	// ReLU.
	LayerNorm bool `json:"layer_norm"`
}

// DefaultArch is the default network: an MLP of 3 hidden layers of 256 units
// without layer norm.
func DefaultArch() Arch { return Arch{Kind: KindMLP, Width: 256, Depth: 3} }

// normalized fills the defaults of a zero Kind.
func (a Arch) normalized() Arch {
	if a.Kind == "" {
		a.Kind = KindMLP
	}
	return a
}

// Validate reports the first problem with a, or nil.
func (a Arch) Validate() error {
	a = a.normalized()
	if a.Kind != KindMLP && a.Kind != KindResMLP {
		return fmt.Errorf("nn: unknown architecture kind %q (known: %s, %s)", a.Kind, KindMLP, KindResMLP)
	}
	if a.Width < 1 || a.Width > MaxWidth {
		return fmt.Errorf("nn: width %d is out of range (1 to %d)", a.Width, MaxWidth)
	}
	if a.Depth < 1 || a.Depth > MaxDepth {
		return fmt.Errorf("nn: depth %d is out of range (1 to %d)", a.Depth, MaxDepth)
	}
	return nil
}

// String describes a in one line, e.g. "mlp 3x256" or "resmlp 4x128+ln".
func (a Arch) String() string {
	a = a.normalized()
	s := fmt.Sprintf("%s %dx%d", a.Kind, a.Depth, a.Width)
	if a.LayerNorm {
		s += "+ln"
	}
	return s
}
