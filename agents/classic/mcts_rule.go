package classic

import "fmt"

// Rule is the selection rule of a search ([MCTSConfig.Rule]): how a
// descent picks the child to follow, and when a leaf gets its children.
// A new rule is a new value here and a case where the tree selects and
// expands.
type Rule uint8

const (
	// UCT picks the child with the highest Q + C·sqrt(ln N / n), an
	// unvisited child first, and expands a leaf at its second visit: the
	// mcts agent, whose evaluator gives values but no priors. The zero
	// value.
	UCT Rule = iota
	// PUCT picks the child with the highest Q + C·P·sqrt(N) / (1 + n), P
	// being the evaluator's prior, and expands a leaf at its first visit:
	// AlphaZero's rule (the az agent, the lock-step search).
	PUCT
	// Gumbel is Gumbel AlphaZero's search (Danihelka et al., ICLR 2022):
	// at the root, Gumbel-top-k sampling of the actions and Sequential
	// Halving over the simulation budget; below it, the deterministic
	// choice of the child with the highest π'(a) − N(a)/(1 + ΣN), π' being
	// the improved policy softmax(logits + σ(completed Q)). Leaves are
	// expanded at their first visit, as under PUCT. See gumbel.go and
	// [GumbelConfig].
	Gumbel
)

// String returns the rule's name: uct, puct or gumbel.
func (r Rule) String() string {
	switch r {
	case UCT:
		return "uct"
	case PUCT:
		return "puct"
	case Gumbel:
		return "gumbel"
	}
	return fmt.Sprintf("Rule(%d)", uint8(r))
}

// priors reports whether the rule reads the evaluator's priors and expands
// leaves at their first visit (PUCT and Gumbel).
func (r Rule) priors() bool { return r == PUCT || r == Gumbel }
