package bench

import "fmt"

// MaxNNBatch bounds the batch sizes of RunNN (the training loop's own bound
// on optimizer.batch_size): a batch is allocated whole, observations,
// targets and the activations of every layer.
const MaxNNBatch = 1 << 16

// MaxAZGames bounds AZOptions.Games (the training loop's bound on
// selfplay.parallel_games): every game holds a tree.
const MaxAZGames = 1 << 14

// check refuses batch sizes outside 1 to MaxNNBatch, naming the bound.
func (o *NNOptions) check() error {
	for _, c := range []struct {
		what    string
		batches []int
	}{{"train", o.TrainBatches}, {"predict", o.PredictBatches}} {
		for _, b := range c.batches {
			if b < 1 || b > MaxNNBatch {
				return fmt.Errorf("bench: nn: %s batch %d: want 1 to %d", c.what, b, MaxNNBatch)
			}
		}
	}
	for _, th := range o.Threads {
		if th < 1 || th > 1024 {
			return fmt.Errorf("bench: nn: %d threads: want 1 to 1024", th)
		}
	}
	return nil
}
