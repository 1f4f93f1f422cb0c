// Package classic holds the agents that need no network: random, greedy,
// alpha-beta, the Monte Carlo tree search (its UCT, PUCT and Gumbel rules,
// batched leaves and the lock-step search of many games that self-play
// drives) and an external engine spoken to over the line protocol, with the
// server side of that protocol. Its kinds register with package agents on
// import.
//
// The search takes its evaluator ([Evaluator], [BatchEvaluator]) from the
// caller: random rollouts here, a network in agents/network, so that the
// AlphaZero agent adds an evaluator, not a second search.
package classic
