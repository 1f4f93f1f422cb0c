package nn

import "github.com/urim-rl/urim/nn/kernels"

// Backward runs the operations in reverse. Each operation takes two passes:
// one over row blocks (the activation's derivative, applied in place to the
// incoming gradient, and the gradient of the input), then one over blocks of
// its parameters (the weight gradient X^T·dY cut into blocks of weight rows,
// and the bias or gain sums, each over all rows in row order). Every
// parameter is used once, so its gradient is written, never accumulated; an
// activation read by two operations (a residual stream) has its gradient
// written by the first one backward meets and added to by the other.
//
// The parameter pass of operation i and the row pass of operation i-1 run in
// one dispatch: the first reads the values of i's input and the gradient of
// i's output, the second writes gradients of i-1's output and input, which
// are neither (i-1 cannot read i's output), so they may run side by side.

// paramChunk is the number of weight rows of one unit of the weight
// gradient (a multiple of both micro-kernels' MR). A layer of 128 inputs
// makes two units, so that the weight gradient, which runs beside the
// cheaper row pass of the operation before, does not leave the other
// thread idle for most of the dispatch.
const paramChunk = 64

// backwardJob runs, as one dispatch, the parameter pass of operation pop (its
// units first; pop < 0 for none) and the row pass of operation rop (rop < 0
// for none).
type backwardJob struct {
	n        *Net
	ws       *workspace
	grads    []Param // gradient views, parallel to n.params
	pop, rop int
	pUnits   int
}

func (j *backwardJob) run(u int) {
	if u < j.pUnits {
		j.n.backwardParams(j.pop, j.ws, j.grads, u)
		return
	}
	r0 := (u - j.pUnits) * j.ws.chunk
	j.n.backwardRows(j.rop, j.ws, r0, min(r0+j.ws.chunk, j.ws.rows))
}

// paramUnits returns the number of units of operation o's parameter pass.
func paramUnits(o *op) int {
	switch o.kind {
	case opLinear:
		rb, cb := weightBlocks(o)
		return rb*cb + 1
	case opNorm:
		return 1
	}
	return 0
}

// weightBlocks returns how a Linear op's weight gradient is cut: into rb
// blocks of paramChunk weight rows and, for a layer of at most paramChunk
// inputs and at least 2·paramChunk outputs (the input layer), into cb = 2
// blocks of columns (paramChunk wide, a multiple of both micro-kernels' NR),
// so that it too makes two units.
func weightBlocks(o *op) (rb, cb int) {
	rb, cb = (o.nin+paramChunk-1)/paramChunk, 1
	if rb == 1 && o.nout >= 2*paramChunk {
		cb = (o.nout + paramChunk - 1) / paramChunk
	}
	return rb, cb
}

// backward computes the gradients of every parameter into j.grads, given the
// gradients of the heads' outputs in ws.dx.
func (n *Net) backward(j *backwardJob, p *pool) {
	last := len(n.g.ops) - 1
	j.pop, j.pUnits, j.rop = -1, 0, last
	p.do(j, j.ws.blocks(j.ws.rows))
	for i := last; i >= 0; i-- {
		j.pop, j.pUnits, j.rop = i, paramUnits(&n.g.ops[i]), i-1
		k := j.pUnits
		if i > 0 {
			k += j.ws.blocks(j.ws.rows)
		}
		if k > 0 {
			p.do(j, k)
		}
	}
}

// backwardRows runs the row pass of operation i on rows [r0, r1).
func (n *Net) backwardRows(i int, ws *workspace, r0, r1 int) {
	o := &n.g.ops[i]
	rows := r1 - r0
	y := ws.x[o.out][r0*o.nout : r1*o.nout]
	dy := ws.dx[o.out][r0*o.nout : r1*o.nout]
	var dx []float32
	if !o.noGradInput {
		dx = ws.dx[o.in][r0*o.nin : r1*o.nin]
	}
	switch {
	case o.kind == opNorm: // LayerNormBackward applies the ReLU
	case o.act == actReLU:
		kernels.ReLUBackward(dy, dy, y)
	case o.act == actTanh:
		tanhGrad(dy, y)
	}
	switch o.kind {
	case opLinear:
		if dx == nil {
			return
		}
		var beta float32
		if o.accIn {
			beta = 1
		}
		if ws.packsT != nil {
			kernels.SgemmPacked(rows, 1, dy, o.nout, &ws.packsT[i], beta, dx, o.nin)
		} else {
			kernels.Sgemm(false, true, rows, o.nin, o.nout, 1, dy, o.nout, n.params[o.w].W, o.nout, beta, dx, o.nin)
		}
	case opNorm:
		// The ReLU's mask, the input's gradient and this block's sums of
		// the gain's and the bias's gradients in one call.
		k := n.g.normIndex[i]
		x := ws.x[o.in][r0*o.nin : r1*o.nin]
		u, blocks := r0/ws.chunk, ws.blocks(ws.rows)
		part := ws.normPart[k]
		dg := part[u*o.nin : (u+1)*o.nin]
		db := part[(blocks+u)*o.nin : (blocks+u+1)*o.nin]
		clear(dg)
		clear(db)
		kernels.LayerNormBackward(dx, dy, x, n.params[o.w].W, n.params[o.b].W, ws.mean[k][r0:r1], ws.rstd[k][r0:r1], dg, db, o.act == actReLU, o.accIn)
	case opReLU:
		if o.accIn {
			reluBackwardAdd(dx, dy, y)
		} else {
			kernels.ReLUBackward(dx, dy, y)
		}
	case opAdd:
		// An input whose gradient shares dy's buffer has it already.
		if !o.aliasIn {
			copyOrAdd(dx, dy, o.accIn)
		}
		if !o.aliasIn2 {
			copyOrAdd(ws.dx[o.in2][r0*o.nin:r1*o.nin], dy, o.accIn2)
		}
	}
}

// backwardParams runs unit u of the parameter pass of operation i.
func (n *Net) backwardParams(i int, ws *workspace, grads []Param, u int) {
	o := &n.g.ops[i]
	rows := ws.rows
	x := ws.x[o.in][:rows*o.nin]
	dy := ws.dx[o.out][:rows*o.nout]
	switch o.kind {
	case opLinear:
		rb, cb := weightBlocks(o)
		if u < rb*cb {
			i0, j0 := 0, 0
			i1, j1 := o.nin, o.nout
			if cb > 1 {
				j0 = u * paramChunk
				j1 = min(j0+paramChunk, o.nout)
			} else {
				i0 = u * paramChunk
				i1 = min(i0+paramChunk, o.nin)
			}
			dw := grads[o.w].W
			kernels.Sgemm(true, false, i1-i0, j1-j0, rows, 1, x[i0:], o.nin, dy[j0:], o.nout, 0, dw[i0*o.nout+j0:], o.nout)
			return
		}
		db := grads[o.b].W
		clear(db)
		kernels.ColSum(db, dy)
	case opNorm:
		// The row blocks' sums, added in block order.
		blocks := ws.blocks(rows)
		part := ws.normPart[n.g.normIndex[i]]
		dg, db := grads[o.w].W, grads[o.b].W
		clear(dg)
		clear(db)
		kernels.ColSum(dg, part[:blocks*o.nin])
		kernels.ColSum(db, part[blocks*o.nin:2*blocks*o.nin])
	}
}

// tanhGrad multiplies dy by 1-y², the derivative of tanh at output y.
func tanhGrad(dy, y []float32) {
	y = y[:len(dy)]
	for j, v := range y {
		dy[j] *= 1 - v*v
	}
}

// reluBackwardAdd adds to dx the part of dy where y is positive.
func reluBackwardAdd(dx, dy, y []float32) {
	dy, y = dy[:len(dx)], y[:len(dx)]
	for j := range dx {
		if y[j] > 0 {
			dx[j] += dy[j]
		}
	}
}

func copyOrAdd(dst, src []float32, acc bool) {
	if acc {
		addTo(dst, src)
	} else {
		copy(dst, src)
	}
}

// addTo adds src to dst.
func addTo(dst, src []float32) {
	src = src[:len(dst)]
	for j, v := range src {
		dst[j] += v
	}
}
