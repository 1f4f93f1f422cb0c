package nn

import "github.com/urim-rl/urim/env"

// Model is a network as the agents hold it: the game and encoding it was
// made for, its number of actions, and forward passes of its own. *Net is
// the pure-Go model; another back-end would be one more implementation,
// with no change to the agents, which take a Model.
type Model interface {
	// Rules returns the rules of the game the network plays.
	Rules() env.Rules
	// Encoding returns the observation encoding it reads.
	Encoding() env.Encoding
	// Actions returns the width of its policy head.
	Actions() int
	// NewInference returns a forward pass for batches of up to maxBatch
	// rows (at least 1) running on threads goroutines (0 means 1), for one
	// goroutine's use; each caller makes its own.
	NewInference(maxBatch, threads int) Inference
}

// NewInference returns a Predictor (see NewPredictor and SetThreads), as an
// Inference.
func (n *Net) NewInference(maxBatch, threads int) Inference {
	p := n.NewPredictor(maxBatch)
	if threads > 1 {
		p.SetThreads(threads)
	}
	return p
}

// Inference is what a caller needs of a network to evaluate positions: the
// forward pass over a batch of observation rows (row-major batch×InputDim),
// giving raw logits (batch×Actions) and values in [-1, 1]. The pure-Go
// *Predictor implements it; another back-end (libtorch, say) would be one
// more implementation, made by its Model.
type Inference interface {
	// Predict returns batch×Actions logits and batch values for batch rows
	// of obs; the results alias internal buffers until the next call.
	Predict(obs []float32, batch int) (logits, values []float32)
	// MaxBatch returns the largest batch Predict takes.
	MaxBatch() int
}

// Training is what a training loop needs of a trainer: steps on the two
// losses nn declares (the policy-value loss of a Batch, PPO's loss of a
// PPOBatch), evaluation, the learning rate's schedule and the state to save.
// Every method takes targets and returns statistics: a back-end keeping its
// tensors elsewhere (a GPU, another process) computes the losses where the
// tensors are. *Trainer implements it.
type Training interface {
	// Step takes one optimizer step on the policy-value loss of a batch.
	Step(b Batch) StepStats
	// StepPPO takes one optimizer step on PPO's loss.
	StepPPO(b PPOBatch, l PPOLoss) PPOStats
	// Evaluate returns the policy-value loss on a batch without training.
	Evaluate(b Batch) LossStats
	// SetSchedule replaces the learning-rate schedule; the step count
	// carries on.
	SetSchedule(s Schedule) error
	// Checkpoint returns the state to save: the network, step count and
	// optimizer state.
	Checkpoint() *Checkpoint
	// Close releases the trainer's resources; it must not be used after.
	Close()
}

// Runner is an optional ability of a Training: running host-side work (a
// training loop's gathering of minibatch rows) on the trainer's threads,
// which are idle between steps. Callers detect it with a type assertion and
// run the units themselves without it; see Trainer.Run.
type Runner interface {
	Run(units int, f func(unit int))
}

var (
	_ Model     = (*Net)(nil)
	_ Inference = (*Predictor)(nil)
	_ Training  = (*Trainer)(nil)
	_ Runner    = (*Trainer)(nil)
)
