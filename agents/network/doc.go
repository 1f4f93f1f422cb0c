// Package network holds the agents that play a policy-value network: neural
// (the policy head alone) and az (the search of agents/classic with the
// network as its evaluator), and the lock-step search of an az spec for
// self-play. Their kinds register with package agents on import.
package network
