package nn

import (
	"fmt"
	"math"
	"runtime"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn/kernels"
)

// TrainConfig sets up a Trainer. The zero value trains with AdamW's defaults
// at a constant learning rate of 1e-3, equal loss weights, no clipping, on
// one thread.
type TrainConfig struct {
	// PolicyWeight and ValueWeight weigh the two losses; 0 means 1.
	PolicyWeight float64 `yaml:"policy_weight" json:"policy_weight"`
	ValueWeight  float64 `yaml:"value_weight" json:"value_weight"`
	// ScoreWeight weighs the score head's loss (Arch.Score), the mean
	// squared error of its outputs against the batch's Margin; 0 (unlike
	// the two above) means no score loss: the head, if any, gets no
	// gradient. A network without a score head needs 0.
	ScoreWeight float64 `yaml:"score_weight" json:"score_weight"`
	// Optimizer holds AdamW's hyper-parameters.
	Optimizer AdamW `yaml:"optimizer" json:"optimizer"`
	// Schedule gives the learning rate of each step.
	Schedule Schedule `yaml:"schedule" json:"schedule"`
	// ClipNorm scales the gradient down to this global L2 norm when it is
	// larger; 0 means no clipping.
	ClipNorm float64 `yaml:"clip_norm" json:"clip_norm"`
	// Threads is the number of goroutines a step uses; 0 means 1. Results do
	// not depend on it.
	Threads int `yaml:"threads" json:"threads"`
}

// Batch is one batch of training examples: N rows in the row schema
// ([env.Rows]). A step reads Obs (N×InputDim observations), Mask (N×Actions
// legal actions), Policy (N×Actions target distributions; mass on illegal
// actions is ignored), Outcome (N value targets in [-1, 1]) and, with a
// score loss (TrainConfig.ScoreWeight above 0), Margin (N score targets in
// [-1, 1]); it ignores the other columns, which may be nil.
type Batch struct {
	env.Rows
	// N is the number of rows.
	N int
}

// StepStats reports one training step.
type StepStats struct {
	LossStats
	// GradNorm is the global L2 norm of the gradient before clipping.
	GradNorm float64
	// LR is the learning rate the step used.
	LR float64
	// Step is the number of steps taken, this one included.
	Step int64
}

// optChunk is the number of weights of one unit of the optimizer's passes.
const optChunk = 16384

// Trainer trains a Net with AdamW. It owns the network's weights while it
// steps; Predictors of the same Net must not run concurrently with Step. A
// Trainer allocates nothing per step once built.
type Trainer struct {
	net  *Net
	cfg  TrainConfig
	wp   float64
	wv   float64
	wsc  float64 // cfg.ScoreWeight
	ws   *workspace
	grad []float32 // gradients, laid out like the weights
	gv   []Param   // views of grad per parameter
	m, v []float32 // AdamW moments, laid out like the weights
	t    int64     // AdamW updates applied
	step int64

	pool  *pool
	fwd   forwardJob
	bwd   backwardJob
	opt   optJob
	pack  packJob
	parts []float64
	ppo   *ppoLoss // StepPPO's loss, made by its first call
}

// packJob packs, one unit per operation, the weight matrix of each Linear
// op for the forward pass and, with grads, its transpose for the input
// gradients of the backward pass: the weights change at every step, and
// packing them once per step spares every row block's product its own
// packing (and lets the forward pass add the bias in the product's stores).
type packJob struct {
	t     *Trainer
	grads bool
}

func (j *packJob) run(i int) {
	n, ws := j.t.net, j.t.ws
	o := &n.g.ops[i]
	if o.kind != opLinear {
		return
	}
	w := n.params[o.w].W
	ws.packs[i].Pack(o.nin, o.nout, w, o.nout)
	if j.grads && !o.noGradInput {
		ws.packsT[i].PackTransposed(o.nout, o.nin, w, o.nout)
	}
}

// NewTrainer returns a trainer of net for batches of up to maxBatch rows.
func NewTrainer(net *Net, cfg TrainConfig, maxBatch int) (*Trainer, error) {
	cfg.Optimizer = cfg.Optimizer.withDefaults()
	if err := cfg.Optimizer.validate(); err != nil {
		return nil, err
	}
	if err := cfg.Schedule.Validate(); err != nil {
		return nil, err
	}
	for _, w := range []float64{cfg.PolicyWeight, cfg.ValueWeight, cfg.ScoreWeight, cfg.ClipNorm} {
		if math.IsNaN(w) || math.IsInf(w, 0) || w < 0 {
			return nil, fmt.Errorf("nn: loss weights and clip norm must be finite and not negative (%v, %v, %v, %v)", cfg.PolicyWeight, cfg.ValueWeight, cfg.ScoreWeight, cfg.ClipNorm)
		}
	}
	if cfg.ScoreWeight > 0 && !net.arch.Score {
		return nil, fmt.Errorf("nn: a score weight of %v, but the %v network has no score head", cfg.ScoreWeight, net.arch)
	}
	if cfg.Threads < 0 || maxBatch < 1 {
		return nil, fmt.Errorf("nn: NewTrainer: threads %d and max batch %d", cfg.Threads, maxBatch)
	}
	t := &Trainer{net: net, cfg: cfg, wp: cfg.PolicyWeight, wv: cfg.ValueWeight, wsc: cfg.ScoreWeight}
	if t.wp == 0 {
		t.wp = 1
	}
	if t.wv == 0 {
		t.wv = 1
	}
	t.ws = newWorkspace(&net.g, maxBatch, true)
	k := len(net.flat)
	t.grad = make([]float32, k)
	t.m = make([]float32, k)
	t.v = make([]float32, k)
	t.gv = make([]Param, len(net.params))
	for i, p := range net.params {
		off := net.offset[i]
		t.gv[i] = Param{Name: p.Name, Shape: p.Shape, W: t.grad[off : off+len(p.W) : off+len(p.W)]}
	}
	t.parts = make([]float64, (k+optChunk-1)/optChunk)
	t.pool = newPool(max(cfg.Threads, 1))
	if t.pool.threads > 1 {
		runtime.AddCleanup(t, func(p *pool) { p.close() }, t.pool)
	}
	t.fwd = forwardJob{n: net, ws: t.ws}
	t.bwd = backwardJob{n: net, ws: t.ws, grads: t.gv}
	t.opt = optJob{t: t}
	t.pack = packJob{t: t}
	t.ws.packs = make([]kernels.PackedB, len(net.g.ops))
	t.ws.packsT = make([]kernels.PackedB, len(net.g.ops))
	return t, nil
}

// NewTrainerFrom returns a trainer that resumes from c: its network, step
// count and, when saved, the optimizer's moments and update count (cfg's
// AdamW hyper-parameters apply from now on).
func NewTrainerFrom(c *Checkpoint, cfg TrainConfig, maxBatch int) (*Trainer, error) {
	t, err := NewTrainer(c.Net, cfg, maxBatch)
	if err != nil {
		return nil, err
	}
	t.step = c.Step
	if o := c.Optimizer; o != nil {
		if len(o.M) != len(t.m) || len(o.V) != len(t.v) {
			return nil, fmt.Errorf("nn: NewTrainerFrom: optimizer state has %d moments for %d weights", len(o.M), len(t.m))
		}
		t.t = o.T
		pos := 0
		for i, p := range t.net.params {
			off := t.net.offset[i]
			copy(t.m[off:off+len(p.W)], o.M[pos:])
			copy(t.v[off:off+len(p.W)], o.V[pos:])
			pos += len(p.W)
		}
	}
	return t, nil
}

// SetSchedule sets the learning-rate schedule of the steps to come (the
// step count, which the schedule reads, carries on), so that a training
// loop can change the rate between phases without building another
// trainer. It returns the schedule's error, leaving the old one, when s is
// invalid.
func (t *Trainer) SetSchedule(s Schedule) error {
	if err := s.Validate(); err != nil {
		return err
	}
	t.cfg.Schedule = s
	return nil
}

// funcJob runs a caller's function as a pool job.
type funcJob func(unit int)

func (f funcJob) run(u int) { f(u) }

// Run calls f(0), ..., f(units-1) on the trainer's threads, the caller's
// goroutine among them, and returns when all have returned. The calls may
// run in any order and at the same time, so they must write disjoint data;
// cut the work into units by its size alone (never by the number of
// threads) to keep results independent of it. A HeadLoss may call Run (the
// trainer's threads are idle while it runs); nothing else of the trainer
// may run meanwhile. Run allocates nothing when f does not (make f once).
func (t *Trainer) Run(units int, f func(unit int)) {
	if units > 0 {
		t.pool.do(funcJob(f), units)
	}
}

// Net returns the network being trained.
func (t *Trainer) Net() *Net { return t.net }

// Steps returns the number of steps taken.
func (t *Trainer) Steps() int64 { return t.step }

// Grads returns the gradients of the last Gradients or Step call (scaled
// down by Step when it clipped), one per parameter, aliasing the trainer's
// buffers.
func (t *Trainer) Grads() []Param { return t.gv }

// Checkpoint returns the trainer's state: the network (shared, not copied),
// the step count and a copy of the optimizer's state.
func (t *Trainer) Checkpoint() *Checkpoint {
	o := &OptimizerState{Config: t.cfg.Optimizer, T: t.t, M: make([]float32, len(t.m)), V: make([]float32, len(t.v))}
	pos := 0
	for i, p := range t.net.params {
		off := t.net.offset[i]
		copy(o.M[pos:], t.m[off:off+len(p.W)])
		copy(o.V[pos:], t.v[off:off+len(p.W)])
		pos += len(p.W)
	}
	return &Checkpoint{Net: t.net, Step: t.step, Optimizer: o}
}

// Close stops the trainer's goroutines; it must not be used afterwards.
func (t *Trainer) Close() { t.pool.close() }

func (t *Trainer) check(b *Batch) {
	n := t.net
	if b.N < 1 || b.N > t.ws.maxRows {
		panic(fmt.Sprintf("nn: batch of %d rows is outside 1..%d", b.N, t.ws.maxRows))
	}
	if len(b.Obs) < b.N*n.inDim || len(b.Mask) < b.N*n.actions || len(b.Policy) < b.N*n.actions || len(b.Outcome) < b.N {
		panic(fmt.Sprintf("nn: batch of %d rows has %d observation, %d mask, %d policy and %d outcome entries (want %d, %d, %d, %d)",
			b.N, len(b.Obs), len(b.Mask), len(b.Policy), len(b.Outcome), b.N*n.inDim, b.N*n.actions, b.N*n.actions, b.N))
	}
	if t.wsc > 0 && len(b.Margin) < b.N {
		panic(fmt.Sprintf("nn: batch of %d rows has %d margin entries, the score loss needs one a row", b.N, len(b.Margin)))
	}
}

// forwardLoss runs the network and the loss on b, leaving the heads'
// gradients in the workspace.
func (t *Trainer) forwardLoss(b *Batch) LossStats {
	t.check(b)
	n, ws := t.net, t.ws
	t.packWeights(true)
	ws.rows = b.N
	ws.x[0] = b.Obs[:b.N*n.inDim]
	t.pool.do(&t.fwd, ws.blocks(b.N))
	g := &n.g
	st := policyValueLoss(ws.x[g.policy], ws.x[g.value], b.Mask, b.Policy, b.Outcome, b.N, n.actions, t.wp, t.wv,
		ws.dx[g.policy], ws.dx[g.value])
	if g.score >= 0 {
		st.Score = scoreLoss(ws.x[g.score][:b.N], b.Margin, t.wsc, ws.dx[g.score][:b.N])
		st.Loss += t.wsc * st.Score
	}
	return st
}

// packWeights packs the weight matrices for a forward pass and, with
// grads, their transposes for a backward pass.
func (t *Trainer) packWeights(grads bool) {
	t.pack.grads = grads
	t.pool.do(&t.pack, len(t.net.g.ops))
}

// Evaluate returns the loss of the network on b without training.
func (t *Trainer) Evaluate(b Batch) LossStats {
	st := t.forwardLoss(&b)
	t.ws.x[0] = nil
	return st
}

// Gradients computes the loss of b and the gradients of every parameter
// (see Grads) without updating the weights.
func (t *Trainer) Gradients(b Batch) LossStats {
	st := t.forwardLoss(&b)
	t.net.backward(&t.bwd, t.pool)
	t.ws.x[0] = nil
	return st
}

// Step takes one training step on b: forward, loss, backward, gradient
// clipping and an AdamW update at the schedule's learning rate. A batch of
// the wrong size panics.
func (t *Trainer) Step(b Batch) StepStats {
	st := StepStats{LossStats: t.Gradients(b)}
	t.update(&st)
	return st
}

// update clips the gradients in t.grad by their global norm, applies AdamW
// and tells the network's Predictors that the weights moved, filling st's
// GradNorm, LR and Step. Step and StepLoss share it.
func (t *Trainer) update(st *StepStats) {
	// Global gradient norm: partial sums over fixed chunks, added in order.
	t.opt.pass = 1
	t.pool.do(&t.opt, len(t.parts))
	var sq float64
	for _, s := range t.parts {
		sq += s
	}
	st.GradNorm = math.Sqrt(sq)
	scale := 1.0
	if t.cfg.ClipNorm > 0 && st.GradNorm > t.cfg.ClipNorm {
		scale = t.cfg.ClipNorm / st.GradNorm
	}
	st.LR = t.cfg.Schedule.At(t.step)
	t.t++
	a := t.cfg.Optimizer
	t.opt.pass = 2
	t.opt.scale = float32(scale)
	t.opt.lr = float32(st.LR)
	t.opt.b1, t.opt.b2 = float32(a.Beta1), float32(a.Beta2)
	t.opt.bc1 = float32(1 - math.Pow(a.Beta1, float64(t.t)))
	t.opt.bc2 = float32(1 - math.Pow(a.Beta2, float64(t.t)))
	t.opt.eps = float32(a.Eps)
	t.opt.wd = float32(a.WeightDecay)
	t.pool.do(&t.opt, len(t.parts))
	t.net.WeightsChanged()
	t.step++
	st.Step = t.step
}

// optJob runs the optimizer over chunks of the weights: pass 1 sums the
// squared gradients of each chunk, pass 2 applies the AdamW update.
type optJob struct {
	t                                    *Trainer
	pass                                 int
	scale, lr, b1, b2, bc1, bc2, eps, wd float32
}

func (j *optJob) run(u int) {
	t := j.t
	lo := u * optChunk
	hi := min(lo+optChunk, len(t.grad))
	if j.pass == 1 {
		var s float64
		for _, g := range t.grad[lo:hi] {
			s += float64(g) * float64(g)
		}
		t.parts[u] = s
		return
	}
	nd := t.net.nDecay
	if lo < nd {
		j.update(lo, min(hi, nd), j.wd)
	}
	if hi > nd {
		j.update(max(lo, nd), hi, 0)
	}
}

// update applies AdamW to weights [lo, hi) with weight decay wd, after
// scaling their gradient by the clipping factor.
func (j *optJob) update(lo, hi int, wd float32) {
	t := j.t
	g := t.grad[lo:hi]
	if j.scale != 1 {
		kernels.Scale(j.scale, g)
	}
	kernels.AdamW(t.net.flat[lo:hi], g, t.m[lo:hi], t.v[lo:hi], j.lr, j.b1, j.b2, j.eps, wd, j.bc1, j.bc2)
}
