package nn

import (
	"fmt"
	"runtime"
)

// Predictor evaluates a Net on batches of observations. Each goroutine needs
// its own Predictor; any number share one Net's weights, which they only
// read. A Predictor allocates nothing per call.
type Predictor struct {
	net  *Net
	ws   *workspace
	job  forwardJob
	pool *pool
}

// NewPredictor returns a predictor for batches of up to maxBatch rows
// (at least 1), running on one thread.
func (n *Net) NewPredictor(maxBatch int) *Predictor {
	maxBatch = max(maxBatch, 1)
	p := &Predictor{net: n, ws: newWorkspace(&n.g, maxBatch, false), pool: newPool(1)}
	p.job = forwardJob{n: n, ws: p.ws}
	return p
}

// SetThreads spreads batches of more than 128 rows over threads goroutines
// (1 by default). The results do not depend on the number of threads.
func (p *Predictor) SetThreads(threads int) {
	p.pool.close()
	p.pool = newPool(threads)
	if threads > 1 {
		runtime.AddCleanup(p, func(q *pool) { q.close() }, p.pool)
	}
}

// MaxBatch returns the largest batch the predictor takes.
func (p *Predictor) MaxBatch() int { return p.ws.maxRows }

// Net returns the network the predictor runs.
func (p *Predictor) Net() *Net { return p.net }

// Predict runs the network on batch observation rows, obs being row-major
// batch×InputDim. It returns batch×Actions raw logits (row-major) and batch
// values in [-1, 1]. Both alias the predictor's buffers and are overwritten
// by its next call. Predict panics if batch is outside 1..MaxBatch or obs is
// too short.
func (p *Predictor) Predict(obs []float32, batch int) (logits, values []float32) {
	n := p.net
	if batch < 1 || batch > p.ws.maxRows {
		panic(fmt.Sprintf("nn: Predict: batch %d is outside 1..%d", batch, p.ws.maxRows))
	}
	if len(obs) < batch*n.inDim {
		panic(fmt.Sprintf("nn: Predict: %d observation values for %d rows of %d", len(obs), batch, n.inDim))
	}
	p.ws.rows = batch
	p.ws.x[0] = obs[:batch*n.inDim]
	p.pool.do(&p.job, units(batch))
	p.ws.x[0] = nil
	return p.ws.x[n.g.policy][:batch*n.actions], p.ws.x[n.g.value][:batch]
}
