package nn

// Inference is what a caller needs of a network to evaluate positions. The
// pure-Go *Predictor implements it; another back-end (libtorch, say) would be
// one more implementation, chosen where the predictor is made, with no change
// to the agents that hold an Inference.
type Inference interface {
	// Predict returns batch×Actions logits and batch values for batch rows
	// of obs; the results alias internal buffers until the next call.
	Predict(obs []float32, batch int) (logits, values []float32)
	// MaxBatch returns the largest batch Predict takes.
	MaxBatch() int
}

// Training is what a training loop needs of a trainer.
type Training interface {
	// Step takes one optimizer step on a batch.
	Step(b Batch) StepStats
	// Evaluate returns the loss on a batch without training.
	Evaluate(b Batch) LossStats
	// Checkpoint returns the state to save.
	Checkpoint() *Checkpoint
}

var (
	_ Inference = (*Predictor)(nil)
	_ Training  = (*Trainer)(nil)
)
