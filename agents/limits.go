package agents

// MaxSims bounds the simulations of one search (the sims= of mcts and az,
// MCTSConfig.Sims, LockstepConfig.Sims): every simulation may add a node
// per legal move to the tree, which stays in memory, so 2^21 simulations
// take up to about 300 MB a tree (and the same again when it is re-rooted).
const MaxSims = 1 << 21
