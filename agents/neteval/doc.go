// Package neteval is the evaluator of a policy-value network for the
// searches of agents/classic: positions encoded into one batch, one forward
// pass per flush, priors by a softmax over the legal moves. It imports no
// agent package, so the search's own tests can use it.
package neteval
