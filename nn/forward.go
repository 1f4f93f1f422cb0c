package nn

import (
	"math"

	"github.com/urim-rl/urim/nn/kernels"
)

// workspace holds the activations of one batch (and, for training, their
// gradients), sized once for a largest batch.
type workspace struct {
	maxRows int
	rows    int
	x       [][]float32 // per activation; x[0] is set to the caller's input
	dx      [][]float32 // gradients, nil for inference
	mean    [][]float32 // per norm op: row means
	rstd    [][]float32 // per norm op: row 1/std
}

func newWorkspace(g *graph, maxRows int, grads bool) *workspace {
	ws := &workspace{maxRows: maxRows}
	ws.x = make([][]float32, len(g.widths))
	for i := 1; i < len(g.widths); i++ {
		ws.x[i] = make([]float32, maxRows*g.widths[i])
	}
	if grads {
		ws.dx = make([][]float32, len(g.widths))
		for i := 1; i < len(g.widths); i++ {
			ws.dx[i] = make([]float32, maxRows*g.widths[i])
		}
	}
	for range g.normCount {
		ws.mean = append(ws.mean, make([]float32, maxRows))
		ws.rstd = append(ws.rstd, make([]float32, maxRows))
	}
	return ws
}

// units returns the number of row blocks of a batch.
func units(rows int) int { return (rows + rowChunk - 1) / rowChunk }

// forwardJob runs the whole network on one row block per unit.
type forwardJob struct {
	n  *Net
	ws *workspace
}

func (j *forwardJob) run(u int) {
	r0 := u * rowChunk
	r1 := min(r0+rowChunk, j.ws.rows)
	for i := range j.n.g.ops {
		j.n.forwardOp(i, j.ws, r0, r1)
	}
}

// forwardOp runs operation i on rows [r0, r1).
func (n *Net) forwardOp(i int, ws *workspace, r0, r1 int) {
	o := &n.g.ops[i]
	rows := r1 - r0
	x := ws.x[o.in][r0*o.nin : r1*o.nin]
	y := ws.x[o.out][r0*o.nout : r1*o.nout]
	switch o.kind {
	case opLinear:
		w, b := n.params[o.w].W, n.params[o.b].W
		kernels.Sgemm(false, false, rows, o.nout, o.nin, 1, x, o.nin, w, o.nout, 0, y, o.nout)
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
		mean, rstd := ws.mean[k][r0:r1], ws.rstd[k][r0:r1]
		for r := 0; r < rows; r++ {
			mean[r], rstd[r] = normRow(y[r*o.nout:(r+1)*o.nout], x[r*o.nin:(r+1)*o.nin], gain, bias, o.act == actReLU)
		}
	case opReLU:
		kernels.ReLU(y, x)
	case opAdd:
		x2 := ws.x[o.in2][r0*o.nin : r1*o.nin]
		add(y, x, x2)
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

// add sets y to a + b.
func add(y, a, b []float32) {
	a, b = a[:len(y)], b[:len(y)]
	for j := range y {
		y[j] = a[j] + b[j]
	}
}

// normRow writes gain·(x-mean)/sqrt(var+eps)+bias into y, through a ReLU
// when relu is set, and returns the mean and 1/sqrt(var+eps).
func normRow(y, x, gain, bias []float32, relu bool) (mean, rstd float32) {
	var s float32
	for _, v := range x {
		s += v
	}
	mean = s / float32(len(x))
	var q float32
	for _, v := range x {
		d := v - mean
		q += d * d
	}
	rstd = float32(1 / math.Sqrt(float64(q/float32(len(x)))+normEps))
	gain, bias, y = gain[:len(x)], bias[:len(x)], y[:len(x)]
	for j, v := range x {
		t := gain[j]*((v-mean)*rstd) + bias[j]
		if relu {
			t = max(t, 0)
		}
		y[j] = t
	}
	return mean, rstd
}
