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

// MaxHiddenWeights bounds the weights of the hidden layers' matrices
// (Depth·Width² for mlp, 2·Depth·Width² for resmlp): 2^27, 512 MiB of
// float32, about 2 GiB while training (gradients and AdamW's moments).
// Width and depth at their limits together would need tens of gigabytes.
const MaxHiddenWeights = 1 << 27

// Arch describes the trunk of a policy-value network and its heads: a
// Linear policy head with one logit per action, a Linear value head followed
// by tanh and, when Score is set, a Linear score head followed by tanh.
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
	// Score adds the auxiliary score head (KataGo's score target): one
	// value per row in [-1, 1] (tanh), the game's final seed margin for the
	// player to move over the rules' seeds, trained by TrainConfig's
	// ScoreWeight. The trunk, policy and value heads are the same without
	// it, drawn from a seed the same way; searches read only the policy
	// and the value. Omitted from JSON when false, so that a network
	// without it is described (and saved) as before it existed.
	Score bool `json:"score,omitempty"`
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
	hidden := int64(a.Depth) * int64(a.Width) * int64(a.Width)
	if a.Kind == KindResMLP {
		hidden *= 2
	}
	if hidden > MaxHiddenWeights {
		return fmt.Errorf("nn: %v is too large: %d M weights in its hidden layers (%.1f GiB), at most %d M; make it narrower or shallower",
			a, hidden>>20, float64(hidden)*4/(1<<30), MaxHiddenWeights>>20)
	}
	return nil
}

// String describes a in one line, e.g. "mlp 3x256", "resmlp 4x128+ln" or
// "resmlp 6x256+ln+score".
func (a Arch) String() string {
	a = a.normalized()
	s := fmt.Sprintf("%s %dx%d", a.Kind, a.Depth, a.Width)
	if a.LayerNorm {
		s += "+ln"
	}
	if a.Score {
		s += "+score"
	}
	return s
}
