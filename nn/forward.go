package nn

import (
	"math"
	"sync"

	"github.com/urim-rl/urim/nn/kernels"
)

// workspace holds the activations of one batch (and, for training, their
// gradients), sized once for a largest batch. For inference only the
// input and the heads' outputs span the batch: the hidden activations live
// in per-unit scratch of chunk rows (see unitScratch), which every row
// block reuses, so that a forward pass touches less memory (and evicts less
// of its caller's, a search's trees say).
type workspace struct {
	g       *graph
	maxRows int
	rows    int
	chunk   int         // rows per unit of work (kernels.BlockRows when made)
	x       [][]float32 // per activation, nil for a unit-local one; x[0] is set to the caller's input
	dx      [][]float32 // gradients, nil for inference
	mean    [][]float32 // per norm op: row means
	rstd    [][]float32 // per norm op: row 1/std
	// normPart holds, per norm op, each row block's sums of the gain's
	// and the bias's gradients (units × width each, the gain's first),
	// for training: the row pass writes them, the parameter pass adds
	// them up in block order.
	normPart [][]float32
	// packs holds the weight matrix of each Linear op packed for the
	// kernels (indexed by op; nil for batches too small to use them):
	// a Predictor packs them when the weights change, a Trainer at every
	// step. packsT holds their transposes, for the input gradients of a
	// Trainer's backward pass (nil for inference).
	packs, packsT []kernels.PackedB
	// q8 holds, at int8 precision, the int8 weights of each Linear op that
	// runs in int8 (indexed by op; a zero PackedQ8 for the others): a
	// Predictor quantises them when the weights change. nil at float32.
	q8 []kernels.PackedQ8
	// toQ8 marks, per op, the layer norms that at int8 write the next op's
	// quantised input (normToQ8); that op then skips its Quantize.
	toQ8 []bool
	// addQ8 marks, per op, the residual sums that at int8 the op before
	// does in its stores (addToQ8); the sum itself is then skipped.
	addQ8 []bool
	// local marks the unit-local activations; units is the free list of
	// unit scratch, one per unit running at once.
	local []bool
	units struct {
		sync.Mutex
		free []*unitScratch
	}
}

// unitScratch is what one unit of a forward pass works in.
type unitScratch struct {
	local [][]float32    // per activation: chunk rows if it is unit-local, else nil
	view  [][]float32    // per activation: the unit's rows, set for each unit
	q     kernels.Q8Rows // the quantised input of an int8 layer
}

func newWorkspace(g *graph, maxRows int, grads bool) *workspace {
	ws := &workspace{g: g, maxRows: maxRows, chunk: kernels.BlockRows(), toQ8: normToQ8(g), addQ8: addToQ8(g)}
	// One slab for the batch-wide buffers: the activations (only the heads'
	// for inference) and, for training, their gradients.
	size := 0
	for i, w := range g.widths {
		if i > 0 && (grads || g.isHead(i)) {
			size += maxRows*w + 16
		}
		if grads && i > 0 {
			size += maxRows*w + 16
		}
	}
	sl := newSlab(size)
	ws.x = make([][]float32, len(g.widths))
	ws.local = make([]bool, len(g.widths))
	for i := 1; i < len(g.widths); i++ {
		if !grads && !g.isHead(i) {
			ws.local[i] = true
			continue
		}
		ws.x[i] = sl.take(maxRows * g.widths[i])
	}
	if grads {
		// The gradient of a residual sum's inputs shares the sum's buffer
		// where the graph allows it (see graph.finish), latest sums first,
		// so that a chain of sums shares one buffer.
		ws.dx = make([][]float32, len(g.widths))
		for i := len(g.ops) - 1; i >= 0; i-- {
			o := &g.ops[i]
			if o.kind != opAdd {
				continue
			}
			if ws.dx[o.out] == nil {
				ws.dx[o.out] = sl.take(maxRows * g.widths[o.out])
			}
			if o.aliasIn {
				ws.dx[o.in] = ws.dx[o.out]
			}
			if o.aliasIn2 {
				ws.dx[o.in2] = ws.dx[o.out]
			}
		}
		for i := 1; i < len(g.widths); i++ {
			if ws.dx[i] == nil {
				ws.dx[i] = sl.take(maxRows * g.widths[i])
			}
		}
	}
	for range g.normCount {
		ws.mean = append(ws.mean, make([]float32, maxRows))
		ws.rstd = append(ws.rstd, make([]float32, maxRows))
	}
	if grads {
		for i, o := range g.ops {
			if k := g.normIndex[i]; k >= 0 {
				ws.normPart = append(ws.normPart, make([]float32, 2*ws.blocks(maxRows)*o.nin))
			}
		}
	}
	return ws
}

// blocks returns the number of row blocks (units of work) of a batch.
func (ws *workspace) blocks(rows int) int { return (rows + ws.chunk - 1) / ws.chunk }

// forwardJob runs the network on one row block per unit: the whole of it,
// or without its score head when noScore is set (the last op; a Predictor's
// Predict, whose callers read the policy and the value only).
type forwardJob struct {
	n       *Net
	ws      *workspace
	noScore bool
}

func (j *forwardJob) run(u int) {
	ws := j.ws
	r0 := u * ws.chunk
	r1 := min(r0+ws.chunk, ws.rows)
	us := ws.getUnit()
	for a, w := range ws.g.widths {
		if us.local[a] != nil {
			us.view[a] = us.local[a][:(r1-r0)*w]
		} else {
			us.view[a] = ws.x[a][r0*w : r1*w]
		}
	}
	ops := len(j.n.g.ops)
	if j.noScore && j.n.g.score >= 0 {
		ops--
	}
	for i := range ops {
		j.n.forwardOp(i, ws, us, r0, r1)
	}
	clear(us.view) // drop the caller's input
	ws.putUnit(us)
}

// getUnit takes a unit scratch from the free list, or makes one.
func (ws *workspace) getUnit() *unitScratch {
	ws.units.Lock()
	defer ws.units.Unlock()
	if n := len(ws.units.free); n > 0 {
		us := ws.units.free[n-1]
		ws.units.free = ws.units.free[:n-1]
		return us
	}
	us := &unitScratch{local: make([][]float32, len(ws.x)), view: make([][]float32, len(ws.x))}
	for a, local := range ws.local {
		if local {
			us.local[a] = make([]float32, min(ws.chunk, ws.maxRows)*ws.g.widths[a])
		}
	}
	return us
}

// putUnit returns us to the free list.
func (ws *workspace) putUnit(us *unitScratch) {
	ws.units.Lock()
	ws.units.free = append(ws.units.free, us)
	ws.units.Unlock()
}

// forwardOp runs operation i on rows [r0, r1), whose activations
// us.view holds (us.view[a] is rows r0..r1-1 of activation a).
func (n *Net) forwardOp(i int, ws *workspace, us *unitScratch, r0, r1 int) {
	o := &n.g.ops[i]
	rows := r1 - r0
	v := us.view
	x, y := v[o.in], v[o.out]
	switch o.kind {
	case opLinear:
		w, b := n.params[o.w].W, n.params[o.b].W
		if ws.q8 != nil && int8Op(&n.g, o) {
			if i == 0 || !ws.toQ8[i-1] {
				us.q.Quantize(rows, o.nin, x, o.nin)
			}
			if i+1 < len(ws.addQ8) && ws.addQ8[i+1] {
				// the residual sum after this op, in its stores
				sum := &n.g.ops[i+1]
				res := v[sum.in]
				if sum.in == o.out {
					res = v[sum.in2]
				}
				kernels.Q8GemmAdd(&us.q, &ws.q8[i], b, o.act == actReLU, res, v[sum.out], o.nout)
				return
			}
			kernels.Q8Gemm(&us.q, &ws.q8[i], b, o.act == actReLU, y, o.nout)
			return
		}
		if ws.packs != nil && o.act != actTanh {
			// one pass over y: bias and ReLU in the kernel's stores
			kernels.SgemmPackedBias(rows, x, o.nin, &ws.packs[i], b, o.act == actReLU, y, o.nout)
			return
		}
		if ws.packs != nil {
			kernels.SgemmPacked(rows, 1, x, o.nin, &ws.packs[i], 0, y, o.nout)
		} else {
			kernels.Sgemm(false, false, rows, o.nout, o.nin, 1, x, o.nin, w, o.nout, 0, y, o.nout)
		}
		switch o.act {
		case actReLU:
			kernels.AddBiasReLU(y, b)
		case actTanh:
			addBiasTanh(y, b)
		default:
			kernels.AddBias(y, b)
		}
	case opNorm:
		k := n.g.normIndex[i]
		gain, bias := n.params[o.w].W, n.params[o.b].W
		if ws.q8 != nil && ws.toQ8[i] {
			// one pass: the next op's int8 input, not y
			us.q.LayerNormQ8(x[:rows*o.nin], gain, bias, ws.mean[k][r0:r1], ws.rstd[k][r0:r1], normEps, o.act == actReLU)
			return
		}
		// One call for the block: mean, variance, the output and its ReLU
		// with each row in the first level of cache.
		kernels.LayerNorm(y[:rows*o.nout], x[:rows*o.nin], gain, bias, ws.mean[k][r0:r1], ws.rstd[k][r0:r1], normEps, o.act == actReLU)
	case opReLU:
		kernels.ReLU(y, x)
	case opAdd:
		if ws.q8 != nil && ws.addQ8[i] {
			return // done by the op before (Q8GemmAdd)
		}
		kernels.Add(y, x, v[o.in2])
	}
}

// addBiasTanh sets every row of y (len(b) columns) to tanh(row+b).
func addBiasTanh(y, b []float32) {
	for i := 0; i+len(b) <= len(y); i += len(b) {
		row := y[i : i+len(b)]
		for j, v := range b {
			row[j] = float32(math.Tanh(float64(row[j] + v)))
		}
	}
}
