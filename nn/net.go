package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/urim-rl/urim/env"
)

// Param is one named tensor of a network's weights. W aliases the network's
// storage: writing it changes the network.
type Param struct {
	// Name is dotted, e.g. "hidden.0.w" or "policy.b"; docs/nn.md lists them.
	Name string
	// Shape is [in, out] for a Linear weight (row-major, so y = x·W + b) and
	// [n] for a vector.
	Shape []int
	// W holds the values, row-major.
	W []float32
}

// initKind says how New fills a parameter.
type initKind uint8

const (
	initHe   initKind = iota // normal, std sqrt(2/fan_in): before a ReLU
	initHead                 // uniform in ±1/sqrt(fan_in): the heads
	initZero                 // biases
	initOne                  // layer-norm gains
)

// paramSpec is a parameter while the graph is being built.
type paramSpec struct {
	name  string
	shape []int
	init  initKind
	decay bool // weight decay applies (matrices only)
}

// Net is a policy-value network for one ruleset and one observation
// encoding: a trunk given by its Arch, a policy head of Actions() logits and
// a value head in [-1, 1]. A Net's weights are read by any number of
// Predictors at once; training goes through a Trainer, which must be the only
// user while it steps.
type Net struct {
	arch    Arch
	rules   env.Rules
	enc     env.Encoding
	inDim   int
	actions int

	params []Param
	flat   []float32 // all weights; params are views into it
	nDecay int       // flat[:nDecay] holds the decayed matrices
	offset []int     // offset of each param in flat

	g graph
}

// New returns a network with fresh weights drawn from seed, for positions
// of rules encoded with enc.
func New(arch Arch, rules env.Rules, enc env.Encoding, seed uint64) (*Net, error) {
	n, err := newShape(arch, rules, enc)
	if err != nil {
		return nil, err
	}
	n.initWeights(seed)
	return n, nil
}

// newShape builds a network with zero weights.
func newShape(arch Arch, rules env.Rules, enc env.Encoding) (*Net, error) {
	arch = arch.normalized()
	if err := arch.Validate(); err != nil {
		return nil, err
	}
	g, err := env.NewGame(rules)
	if err != nil {
		return nil, fmt.Errorf("nn: %w", err)
	}
	if enc != env.EncodingCompact && enc != env.EncodingThermometer {
		return nil, fmt.Errorf("nn: unknown observation encoding %d", enc)
	}
	n := &Net{arch: arch, rules: g.Rules(), enc: enc, inDim: enc.Dim(g), actions: rules.PitsPerRow}
	specs := n.g.build(arch, n.inDim, n.actions)
	n.allocate(specs)
	return n, nil
}

// allocate lays the parameters out in one slice, decayed matrices first, and
// makes the Param views.
func (n *Net) allocate(specs []paramSpec) {
	total := 0
	for _, s := range specs {
		total += size(s.shape)
	}
	n.flat = make([]float32, total)
	n.params = make([]Param, len(specs))
	n.offset = make([]int, len(specs))
	off := 0
	for pass := 0; pass < 2; pass++ {
		for i, s := range specs {
			if s.decay != (pass == 0) {
				continue
			}
			k := size(s.shape)
			n.offset[i] = off
			n.params[i] = Param{Name: s.name, Shape: s.shape, W: n.flat[off : off+k : off+k]}
			off += k
		}
		if pass == 0 {
			n.nDecay = off
		}
	}
	n.g.specs = specs
}

func size(shape []int) int {
	k := 1
	for _, d := range shape {
		k *= d
	}
	return k
}

func (n *Net) initWeights(seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x75726e6e)) // "urnn"
	for i, s := range n.g.specs {
		w := n.params[i].W
		switch s.init {
		case initHe:
			std := math.Sqrt(2 / float64(s.shape[0]))
			for j := range w {
				w[j] = float32(rng.NormFloat64() * std)
			}
		case initHead:
			bound := 1 / math.Sqrt(float64(s.shape[0]))
			for j := range w {
				w[j] = float32((2*rng.Float64() - 1) * bound)
			}
		case initZero:
			clear(w)
		case initOne:
			for j := range w {
				w[j] = 1
			}
		}
	}
}

// Arch returns the network's architecture.
func (n *Net) Arch() Arch { return n.arch }

// Rules returns the rules the network plays (a copy).
func (n *Net) Rules() env.Rules {
	r := n.rules
	r.Trigger = append([]int(nil), r.Trigger...)
	r.Chain = append([]int(nil), r.Chain...)
	return r
}

// Encoding returns the observation encoding the network reads.
func (n *Net) Encoding() env.Encoding { return n.enc }

// InputDim returns the number of observation columns of a row.
func (n *Net) InputDim() int { return n.inDim }

// Actions returns the number of policy logits: the pits per row.
func (n *Net) Actions() int { return n.actions }

// Params lists the network's tensors in layer order; their W alias the
// weights.
func (n *Net) Params() []Param { return n.params }

// NumWeights returns the number of float32 weights.
func (n *Net) NumWeights() int { return len(n.flat) }

// Clone returns a deep copy of n.
func (n *Net) Clone() *Net {
	c, err := newShape(n.arch, n.rules, n.enc)
	if err != nil {
		panic("nn: Clone: " + err.Error())
	}
	copy(c.flat, n.flat)
	return c
}

// CopyWeightsFrom sets n's weights to src's, which must have the same
// architecture, rules and encoding (a training loop publishing its network to
// self-play workers, say). It must not run while a Predictor of n does.
func (n *Net) CopyWeightsFrom(src *Net) error {
	if src.arch != n.arch || src.enc != n.enc || !sameRules(src.rules, n.rules) || len(src.flat) != len(n.flat) {
		return fmt.Errorf("%w: cannot copy weights of %v (%s, %s) into %v (%s, %s)", ErrMismatch,
			src.arch, src.rules.Name, src.enc, n.arch, n.rules.Name, n.enc)
	}
	copy(n.flat, src.flat)
	return nil
}

// paramName joins a layer prefix, an index and a tensor name.
func paramName(prefix string, i int, name string) string {
	if i < 0 {
		return prefix + "." + name
	}
	return prefix + "." + strconv.Itoa(i) + "." + name
}
