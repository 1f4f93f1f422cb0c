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
// gradient.
const paramChunk = 128

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
	r0 := (u - j.pUnits) * rowChunk
	j.n.backwardRows(j.rop, j.ws, r0, min(r0+rowChunk, j.ws.rows))
}

// paramUnits returns the number of units of operation o's parameter pass.
func paramUnits(o *op) int {
	switch o.kind {
	case opLinear:
		return (o.nin+paramChunk-1)/paramChunk + 1
	case opNorm:
		return 1
	}
	return 0
}

// backward computes the gradients of every parameter into j.grads, given the
// gradients of the heads' outputs in ws.dx.
func (n *Net) backward(j *backwardJob, p *pool) {
	last := len(n.g.ops) - 1
	j.pop, j.pUnits, j.rop = -1, 0, last
	p.do(j, units(j.ws.rows))
	for i := last; i >= 0; i-- {
		j.pop, j.pUnits, j.rop = i, paramUnits(&n.g.ops[i]), i-1
		k := j.pUnits
		if i > 0 {
			k += units(j.ws.rows)
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
	switch o.act {
	case actReLU:
		kernels.ReLUBackward(dy, dy, y)
	case actTanh:
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
		kernels.Sgemm(false, true, rows, o.nin, o.nout, 1, dy, o.nout, n.params[o.w].W, o.nout, beta, dx, o.nin)
	case opNorm:
		k := n.g.normIndex[i]
		x := ws.x[o.in][r0*o.nin : r1*o.nin]
		gain := n.params[o.w].W
		mean, rstd := ws.mean[k][r0:r1], ws.rstd[k][r0:r1]
		for r := 0; r < rows; r++ {
			s := r * o.nin
			normRowGrad(dx[s:s+o.nin], dy[s:s+o.nin], x[s:s+o.nin], gain, mean[r], rstd[r], o.accIn)
		}
	case opReLU:
		if o.accIn {
			reluBackwardAdd(dx, dy, y)
		} else {
			kernels.ReLUBackward(dx, dy, y)
		}
	case opAdd:
		copyOrAdd(dx, dy, o.accIn)
		copyOrAdd(ws.dx[o.in2][r0*o.nin:r1*o.nin], dy, o.accIn2)
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
		blocks := (o.nin + paramChunk - 1) / paramChunk
		if u < blocks {
			i0 := u * paramChunk
			i1 := min(i0+paramChunk, o.nin)
			dw := grads[o.w].W
			kernels.Sgemm(true, false, i1-i0, o.nout, rows, 1, x[i0:], o.nin, dy, o.nout, 0, dw[i0*o.nout:], o.nout)
			return
		}
		db := grads[o.b].W
		clear(db)
		kernels.ColSum(db, dy)
	case opNorm:
		k := n.g.normIndex[i]
		dg, db := grads[o.w].W, grads[o.b].W
		clear(dg)
		clear(db)
		mean, rstd := ws.mean[k], ws.rstd[k]
		for r := 0; r < rows; r++ {
			s := r * o.nin
			normGainGrad(dg, dy[s:s+o.nin], x[s:s+o.nin], mean[r], rstd[r])
		}
		// The bias's gradient: the same additions, rows in order, as one
		// vector pass.
		kernels.ColSum(db, dy[:rows*o.nin])
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

// normRowGrad writes (or adds to) dx the gradient of a layer norm's input,
// given the gradient dy of its (pre-activation) output. Its two sums run as
// four interleaved partial sums each (as in sum8).
func normRowGrad(dx, dy, x, gain []float32, mean, rstd float32, acc bool) {
	n := len(x)
	dy, gain, dx = dy[:n], gain[:n], dx[:n]
	// Sums of dxhat and dxhat·xhat.
	var a0, a1, a2, a3, b0, b1, b2, b3 float32
	j := 0
	for ; j+4 <= n; j += 4 {
		v, d, g := x[j:j+4:j+4], dy[j:j+4:j+4], gain[j:j+4:j+4]
		g0, g1, g2, g3 := d[0]*g[0], d[1]*g[1], d[2]*g[2], d[3]*g[3]
		a0 += g0
		a1 += g1
		a2 += g2
		a3 += g3
		b0 += g0 * ((v[0] - mean) * rstd)
		b1 += g1 * ((v[1] - mean) * rstd)
		b2 += g2 * ((v[2] - mean) * rstd)
		b3 += g3 * ((v[3] - mean) * rstd)
	}
	for ; j < n; j++ {
		g := dy[j] * gain[j]
		a0 += g
		b0 += g * ((x[j] - mean) * rstd)
	}
	inv := 1 / float32(n)
	s1 := ((a0 + a1) + (a2 + a3)) * inv
	s2 := ((b0 + b1) + (b2 + b3)) * inv
	if acc {
		for j, v := range x {
			xh := (v - mean) * rstd
			dx[j] += rstd * (dy[j]*gain[j] - s1 - xh*s2)
		}
		return
	}
	for j, v := range x {
		xh := (v - mean) * rstd
		dx[j] = rstd * (dy[j]*gain[j] - s1 - xh*s2)
	}
}

// normGainGrad adds one row's contribution to the gain's gradient.
func normGainGrad(dg, dy, x []float32, mean, rstd float32) {
	n := len(x)
	dg, dy = dg[:n], dy[:n]
	for j, v := range x {
		dg[j] += dy[j] * ((v - mean) * rstd)
	}
}
