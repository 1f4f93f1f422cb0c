package neteval

import (
	"fmt"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// Evaluator is the batch evaluator (classic.BatchEvaluator) of a policy-value network: it
// encodes queued positions with the network's encoder into one batch, runs
// the forward pass once per flush, and turns each row's logits into priors
// by a softmax over the legal actions (illegal actions get nothing). Values
// come from the value head, for the player to move.
//
// An Evaluator holds one forward pass (an nn.Inference: searches see the
// network only through it) and is for one goroutine; it allocates nothing
// once its forward pass is warm.
type Evaluator struct {
	pred    nn.Inference
	enc     *env.Encoder
	dim     int
	actions int
	max     int
	n       int
	obs     []float32  // max × dim rows
	legal   []env.Mask // the legal actions of each queued row
	flushed []env.Mask // those of the rows of the last flush
	logits  []float32  // of the last flush: n × actions
	values  []float32  // of the last flush: n
	flushes int64      // forward passes run
	rows    int64      // positions evaluated
}

// New returns the evaluator of net for batches of up to
// maxBatch positions, with a forward pass of its own.
func New(net nn.Model, maxBatch int) *Evaluator {
	maxBatch = max(maxBatch, 1)
	return NewFor(net.NewInference(maxBatch, 1), Game(net), net.Encoding(), net.Actions(), maxBatch)
}

// NewFor returns an evaluator of up to maxBatch positions of g,
// encoded with enc, for a network with the given number of actions.
func NewFor(pred nn.Inference, g *env.Game, enc env.Encoding, actions, maxBatch int) *Evaluator {
	if actions != g.PitsPerRow() {
		panic(fmt.Sprintf("neteval: a network with %d actions for a game with %d", actions, g.PitsPerRow()))
	}
	e := env.NewEncoder(g, enc)
	maxBatch = max(maxBatch, 1)
	return &Evaluator{
		pred:    pred,
		enc:     e,
		dim:     e.Dim(),
		actions: actions,
		max:     maxBatch,
		obs:     make([]float32, maxBatch*e.Dim()),
		legal:   make([]env.Mask, maxBatch),
		flushed: make([]env.Mask, maxBatch),
	}
}

// Cap returns the most positions a batch holds.
func (e *Evaluator) Cap() int { return e.max }

// Queue encodes s into the next free row and returns the row. It panics if
// the batch is full (a caller bug).
func (e *Evaluator) Queue(s *env.State) int {
	if e.n == e.max {
		panic(fmt.Sprintf("neteval: more than %d positions queued", e.max))
	}
	i := e.n
	e.enc.Encode(e.obs[i*e.dim:(i+1)*e.dim], s)
	e.legal[i] = s.Legal()
	e.n++
	return i
}

// Flush runs the network on the queued rows.
func (e *Evaluator) Flush() {
	if e.n == 0 {
		return
	}
	e.logits, e.values = e.pred.Predict(e.obs[:e.n*e.dim], e.n)
	e.legal, e.flushed = e.flushed, e.legal
	e.flushes++
	e.rows += int64(e.n)
	e.n = 0
}

// Queued returns the number of positions queued for the next Flush.
func (e *Evaluator) Queued() int { return e.n }

// Stats returns the number of forward passes run and of positions
// evaluated so far: their ratio is the mean batch.
func (e *Evaluator) Stats() (flushes, rows int64) { return e.flushes, e.rows }

// Result returns the value of row i of the last flush and writes the
// softmax of its logits over its legal actions into prior.
func (e *Evaluator) Result(i int, prior []float32) float32 {
	nn.MaskedSoftmax(prior, e.logits[i*e.actions:(i+1)*e.actions], e.flushed[i], 1)
	return e.values[i]
}

// Logits evaluates s alone (a batch of one) and returns its raw logits,
// which alias the evaluator's buffers until the next flush, and its value.
func (e *Evaluator) Logits(s *env.State) (logits []float32, value float32) {
	e.n = 0
	e.Queue(s)
	e.Flush()
	return e.logits[:e.actions], e.values[0]
}

// Evaluate evaluates s alone (a batch of one), for unbatched search.
func (e *Evaluator) Evaluate(s *env.State, prior []float32) float32 {
	e.n = 0
	e.Queue(s)
	e.Flush()
	return e.Result(0, prior)
}
