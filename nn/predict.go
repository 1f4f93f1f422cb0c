package nn

import (
	"fmt"
	"runtime"

	"github.com/urim-rl/urim/nn/kernels"
)

// Predictor evaluates a Net on batches of observations. Each goroutine needs
// its own Predictor; any number share one Net's weights, which they only
// read. A Predictor allocates nothing per call.
//
// A Predictor of batches of four rows or more keeps the network's weight
// matrices packed in the layout of the kernels' inner loops (see
// kernels.PackedB), so that no forward pass packs them: it packs them at its
// first Predict and again after each change of the weights, which the
// network counts (Trainer.Step, Net.CopyWeightsFrom, Net.WeightsChanged).
type Predictor struct {
	net  *Net
	ws   *workspace
	job  forwardJob
	pool *pool
	// packs is ws.packs while it is filled; packVer and packBackend are
	// the weights' version and the kernels' back-end it was packed for.
	packs       []kernels.PackedB
	packed      bool
	packVer     uint64
	packBackend string
	// q8 is ws.q8 at Int8 precision (nil at FP32), quantised for the
	// weights' version q8Ver when q8Done.
	q8     []kernels.PackedQ8
	q8Done bool
	q8Ver  uint64
}

// minPackRows is the smallest batch for which a Predictor packs the
// weights: smaller products read them in place (kernels.SgemmPacked).
const minPackRows = 4

// NewPredictor returns a predictor for batches of up to maxBatch rows
// (at least 1), running on one thread.
func (n *Net) NewPredictor(maxBatch int) *Predictor {
	maxBatch = max(maxBatch, 1)
	p := &Predictor{net: n, ws: newWorkspace(&n.g, maxBatch, false), pool: newPool(1)}
	p.job = forwardJob{n: n, ws: p.ws}
	if maxBatch >= minPackRows {
		p.packs = make([]kernels.PackedB, len(n.g.ops))
	}
	return p
}

// repack packs the weight matrices when the weights or the kernels'
// back-end changed since they were packed.
func (p *Predictor) repack() {
	n := p.net
	v, be := n.version.Load(), kernels.Backend()
	if p.packed && v == p.packVer && be == p.packBackend {
		return
	}
	for i := range n.g.ops {
		if o := &n.g.ops[i]; o.kind == opLinear {
			p.packs[i].Pack(o.nin, o.nout, n.params[o.w].W, o.nout)
		}
	}
	p.packed, p.packVer, p.packBackend = true, v, be
	p.ws.packs = p.packs
}

// SetPrecision sets the arithmetic of the predictor's forward passes (FP32
// by default). At Int8 it quantises the weights at its next Predict, and
// again after each change of the weights, as it packs them.
func (p *Predictor) SetPrecision(prec Precision) {
	switch {
	case prec == FP32:
		p.q8 = nil
	case p.q8 == nil:
		p.q8 = make([]kernels.PackedQ8, len(p.net.g.ops))
	}
	p.q8Done, p.ws.q8 = false, nil
}

// Precision returns the arithmetic of the predictor's forward passes.
func (p *Predictor) Precision() Precision {
	if p.q8 != nil {
		return Int8
	}
	return FP32
}

// quantize makes the int8 weights when the weights changed since it last
// did.
func (p *Predictor) quantize() {
	n := p.net
	v := n.version.Load()
	if p.q8Done && v == p.q8Ver {
		return
	}
	for i := range n.g.ops {
		if o := &n.g.ops[i]; int8Op(&n.g, o) {
			p.q8[i].Pack(o.nin, o.nout, n.params[o.w].W, o.nout)
		}
	}
	p.q8Done, p.q8Ver = true, v
	p.ws.q8 = p.q8
}

// SetThreads spreads batches of more than one row block (128 rows, 256
// under OpenBLAS) over threads goroutines (1 by default). The results do not
// depend on the number of threads.
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
//
// A network with a score head (Arch.Score) does not run it here: the
// policy and the values are those of the same network without the head,
// bit for bit, at either precision. PredictScore runs it too.
func (p *Predictor) Predict(obs []float32, batch int) (logits, values []float32) {
	p.forward(obs, batch, true)
	n := p.net
	return p.ws.x[n.g.policy][:batch*n.actions], p.ws.x[n.g.value][:batch]
}

// PredictScore is Predict with the score head's outputs too: batch values
// in [-1, 1], the predicted final seed margin for the player to move over
// the rules' seeds (Arch.Score). scores is nil for a network without a
// score head. All three alias the predictor's buffers, as Predict's do.
func (p *Predictor) PredictScore(obs []float32, batch int) (logits, values, scores []float32) {
	p.forward(obs, batch, false)
	n := p.net
	if n.g.score >= 0 {
		scores = p.ws.x[n.g.score][:batch]
	}
	return p.ws.x[n.g.policy][:batch*n.actions], p.ws.x[n.g.value][:batch], scores
}

// forward runs the network on batch rows of obs, without its score head
// when noScore is set.
func (p *Predictor) forward(obs []float32, batch int, noScore bool) {
	n := p.net
	if batch < 1 || batch > p.ws.maxRows {
		panic(fmt.Sprintf("nn: Predict: batch %d is outside 1..%d", batch, p.ws.maxRows))
	}
	if len(obs) < batch*n.inDim {
		panic(fmt.Sprintf("nn: Predict: %d observation values for %d rows of %d", len(obs), batch, n.inDim))
	}
	if p.packs != nil {
		p.repack()
	}
	if p.q8 != nil {
		p.quantize()
	}
	p.ws.rows = batch
	p.ws.x[0] = obs[:batch*n.inDim]
	p.job.noScore = noScore
	p.pool.do(&p.job, p.ws.blocks(batch))
	p.ws.x[0] = nil
}
