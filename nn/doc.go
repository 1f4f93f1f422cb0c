// Package nn is the policy-value network of urim's neural agents and
// training loops: float32, row-major batches, pure Go with the hot products
// in package nn/kernels.
//
// A [Net] reads the observation rows of one ruleset and one encoding (what
// [env.Encoder] and the [env.Vec] write) and gives, per row, one raw logit per
// action (the policy head) and a value in [-1, 1] (the value head, through
// tanh). Its trunk is an [Arch]: a plain MLP or a residual MLP of
// pre-activation blocks, with optional layer norm.
//
// Inference goes through a [Predictor] (one per goroutine, sharing the
// weights); training through a [Trainer], which runs forward, the masked
// policy cross-entropy plus value loss, backward, gradient clipping and
// AdamW under a learning-rate [Schedule]. Neither allocates once warm, both
// may spread a batch over threads, and their results do not depend on the
// number of threads: work is cut into units by size alone and reductions run
// in a fixed order.
//
// [Save] and [Load] write and read checkpoints: one file with the
// architecture, rules, encoding, weights, optimizer state and step, guarded
// by checksums, written atomically. docs/nn.md describes the layers, the
// tensor shapes and the file format byte by byte.
package nn
