package agents

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/urim-rl/urim/env"
)

// predictor is the forward pass of a policy-value network over a batch of
// observation rows, as nn.Predictor does it: logits (batch × actions, raw)
// and values (batch, in [-1, 1]) that alias the predictor's buffers until
// its next call. Searches see the network only through it.
type predictor interface {
	Predict(obs []float32, batch int) (logits, values []float32)
}

// NetEvaluator is the [BatchEvaluator] of a policy-value network: it
// encodes queued positions with the network's encoder into one batch, runs
// the forward pass once per flush, and turns each row's logits into priors
// by a softmax over the legal actions (illegal actions get nothing). Values
// come from the value head, for the player to move.
//
// A NetEvaluator holds one predictor and is for one goroutine; it
// allocates nothing once its predictor is warm.
type NetEvaluator struct {
	pred    predictor
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

// newNetEvaluator returns an evaluator of up to maxBatch positions of g,
// encoded with enc, for a network with the given number of actions.
func newNetEvaluator(pred predictor, g *env.Game, enc env.Encoding, actions, maxBatch int) *NetEvaluator {
	if actions != g.PitsPerRow() {
		panic(fmt.Sprintf("agents: a network with %d actions for a game with %d", actions, g.PitsPerRow()))
	}
	e := env.NewEncoder(g, enc)
	maxBatch = max(maxBatch, 1)
	return &NetEvaluator{
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
func (e *NetEvaluator) Cap() int { return e.max }

// Queue encodes s into the next free row and returns the row. It panics if
// the batch is full (a caller bug).
func (e *NetEvaluator) Queue(s *env.State) int {
	if e.n == e.max {
		panic(fmt.Sprintf("agents: NetEvaluator: more than %d positions queued", e.max))
	}
	i := e.n
	e.enc.Encode(e.obs[i*e.dim:(i+1)*e.dim], s)
	e.legal[i] = s.Legal()
	e.n++
	return i
}

// Flush runs the network on the queued rows.
func (e *NetEvaluator) Flush() {
	if e.n == 0 {
		return
	}
	e.logits, e.values = e.pred.Predict(e.obs[:e.n*e.dim], e.n)
	e.legal, e.flushed = e.flushed, e.legal
	e.flushes++
	e.rows += int64(e.n)
	e.n = 0
}

// Stats returns the number of forward passes run and of positions
// evaluated so far: their ratio is the mean batch.
func (e *NetEvaluator) Stats() (flushes, rows int64) { return e.flushes, e.rows }

// Result returns the value of row i of the last flush and writes the
// softmax of its logits over its legal actions into prior.
func (e *NetEvaluator) Result(i int, prior []float32) float32 {
	maskedSoftmax(prior, e.logits[i*e.actions:(i+1)*e.actions], e.flushed[i], 1)
	return e.values[i]
}

// Evaluate evaluates s alone (a batch of one), for unbatched search.
func (e *NetEvaluator) Evaluate(s *env.State, prior []float32) float32 {
	e.n = 0
	e.Queue(s)
	e.Flush()
	return e.Result(0, prior)
}

// maskedSoftmax writes into p the softmax of logits/temp over the legal
// actions and 0 for the others. temp must be positive.
func maskedSoftmax(p, logits []float32, legal env.Mask, temp float32) {
	top := float32(math.Inf(-1))
	for m := legal; m != 0; m &= m - 1 {
		top = max(top, logits[bits.TrailingZeros8(uint8(m))])
	}
	clear(p)
	// The sum runs over the legal actions in increasing order.
	var sum float32
	for m := legal; m != 0; m &= m - 1 {
		a := bits.TrailingZeros8(uint8(m))
		d := logits[a] - top
		if temp != 1 {
			d /= temp
		}
		// expNeg, inlined: the exponentials of the actions, each a long
		// chain of dependent operations, then overlap.
		x := float32(0)
		if d >= -87 {
			x = expNeg2f(expNegK(d))
		} else if d != d {
			x = d
		}
		p[a] = x
		sum += x
	}
	for m := legal; m != 0; m &= m - 1 {
		p[bits.TrailingZeros8(uint8(m))] /= sum
	}
}

const log2e = 1.4426950408889634

// expNeg returns e^x for x ≤ 0 (and NaN for NaN) within 2e-7 relative,
// exactly 1 at 0, several times faster than math.Exp: e^x = 2^k · 2^f with
// k = round(x·log2 e) (half away from zero) and |f| ≤ ½, 2^f by its
// degree-6 Taylor polynomial.
func expNeg(x float32) float32 {
	if !(x >= -87) { // underflow, or NaN
		if x != x {
			return x
		}
		return 0
	}
	return expNeg2f(expNegK(x)) // two parts, each small enough to inline
}

// expNegK returns t = x·log2 e and n = -round(t), round as math.Round.
// It computes round(-t) with the Floor instruction: -t - ⌊-t⌋ is exact, so
// a tie goes away from zero as math.Round's does; rounding up is an integer
// select, not a branch.
func expNegK(x float32) (t float64, n int64) {
	t = float64(x) * log2e
	y := -t
	r := math.Floor(y)
	n = int64(r) // 0 to 126
	if y-r >= 0.5 {
		n++
	}
	return t, n
}

// expNeg2f returns 2^f · 2^-n for f = (t + n)·ln 2 in [-ln2/2, ln2/2], 2^f
// by its degree-6 Taylor polynomial.
func expNeg2f(t float64, n int64) float32 {
	f := (t + float64(n)) * math.Ln2
	p := 1 + f*(1+f*(1.0/2+f*(1.0/6+f*(1.0/24+f*(1.0/120+f*(1.0/720))))))
	return float32(p * math.Float64frombits(uint64(1023-n)<<52))
}
