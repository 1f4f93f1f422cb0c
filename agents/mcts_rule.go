package agents

import "fmt"

// Rule is the selection rule of a search ([MCTSConfig.Rule]): how a
// descent picks the child to follow, and when a leaf gets its children.
// A new rule (Gumbel's, say) is a new value here and a case where the tree
// selects and expands.
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
)

// String returns the rule's name: uct or puct.
func (r Rule) String() string {
	switch r {
	case UCT:
		return "uct"
	case PUCT:
		return "puct"
	}
	return fmt.Sprintf("Rule(%d)", uint8(r))
}
