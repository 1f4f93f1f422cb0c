package nn

import (
	"math"
	"testing"
)

// layerNet builds a network of the operations add makes on an input of
// width in, with weights from seed, and gradients wanted for the input too.
func layerNet(in int, seed uint64, add func(g *graph, x int) int) (*Net, int) {
	n := &Net{}
	x := n.g.newAct(in)
	out := add(&n.g, x)
	n.allocate(n.g.specs)
	n.initWeights(seed)
	for i, p := range n.params { // non-trivial biases and gains
		for j := range p.W {
			if s := n.g.specs[i]; s.init == initZero || s.init == initOne {
				p.W[j] += 0.3 * float32(math.Sin(float64(5*j+i+1)))
			}
		}
	}
	n.g.finish()
	n.g.ops[0].noGradInput = false
	return n, out
}

// checkLayer compares the gradients of L = Σ c·y (y the output, c fixed
// random weights) with respect to the input and every parameter with
// central finite differences.
func checkLayer(t *testing.T, name string, in int, add func(g *graph, x int) int) {
	t.Helper()
	const rows = 5
	n, out := layerNet(in, 3, add)
	ws := newWorkspace(&n.g, rows, true)
	ws.dx[0] = make([]float32, rows*in)
	x := make([]float32, rows*in)
	for i := range x {
		x[i] = float32(math.Sin(float64(7*i+1))) * 1.5
	}
	c := make([]float32, rows*n.g.widths[out])
	for i := range c {
		c[i] = float32(math.Cos(float64(3*i + 2)))
	}
	p := newPool(1)
	fwd := &forwardJob{n: n, ws: ws}
	loss := func() float64 {
		ws.rows = rows
		ws.x[0] = x
		p.do(fwd, ws.blocks(rows))
		var l float64
		for i, v := range ws.x[out][:len(c)] {
			l += float64(c[i]) * float64(v)
		}
		return l
	}
	loss()
	copy(ws.dx[out], c)
	grads := make([]Param, len(n.params))
	for i, q := range n.params {
		grads[i] = Param{Name: q.Name, W: make([]float32, len(q.W))}
	}
	n.backward(&backwardJob{n: n, ws: ws, grads: grads}, p)
	check := func(what string, v []float32, g []float32) {
		for j := range v {
			old := v[j]
			const h = 1e-3 // inputs stay clear of ReLU kinks by more than h
			v[j] = old + h
			up := loss()
			v[j] = old - h
			down := loss()
			v[j] = old
			fd := (up - down) / (2 * h)
			if math.Abs(fd-float64(g[j])) > 2e-3+1e-2*math.Abs(fd) {
				t.Errorf("%s: d/d%s[%d] is %.6g, finite difference %.6g", name, what, j, g[j], fd)
			}
		}
	}
	check("input", x, append([]float32(nil), ws.dx[0]...))
	for i, q := range n.params {
		check(q.Name, q.W, grads[i].W)
	}
}

// TestLayerGradients checks each layer on its own: Linear with each
// activation, LayerNorm with and without ReLU, ReLU, a residual block, both
// heads on a shared trunk output.
func TestLayerGradients(t *testing.T) {
	checkLayer(t, "linear", 6, func(g *graph, x int) int { return g.linear("l", -1, x, 4, initHe, actNone) })
	checkLayer(t, "linear+relu", 6, func(g *graph, x int) int { return g.linear("l", -1, x, 4, initHe, actReLU) })
	checkLayer(t, "linear+tanh", 6, func(g *graph, x int) int { return g.linear("l", -1, x, 4, initHead, actTanh) })
	// Few inputs, many outputs: the weight gradient is cut into blocks of
	// columns (weightBlocks).
	checkLayer(t, "linear 6→130", 6, func(g *graph, x int) int { return g.linear("l", -1, x, 130, initHe, actNone) })
	checkLayer(t, "layernorm", 7, func(g *graph, x int) int { return g.norm("n", -1, x, actNone) })
	checkLayer(t, "layernorm+relu", 7, func(g *graph, x int) int { return g.norm("n", -1, x, actReLU) })
	// Widths of whole vectors take the layer-norm kernels' SIMD path.
	checkLayer(t, "layernorm 16", 16, func(g *graph, x int) int { return g.norm("n", -1, x, actNone) })
	checkLayer(t, "layernorm+relu 16", 16, func(g *graph, x int) int { return g.norm("n", -1, x, actReLU) })
	checkLayer(t, "relu", 7, func(g *graph, x int) int { return g.relu(x) })
	for _, ln := range []bool{false, true} {
		checkLayer(t, "residual block", 6, func(g *graph, x int) int {
			h := g.linear("stem", -1, x, 6, initHe, actNone)
			a := g.linear("fc1", -1, g.preAct("ln1", -1, h, ln), 6, initHe, actNone)
			a = g.linear("fc2", -1, g.preAct("ln2", -1, a, ln), 6, initHe, actNone)
			return g.add(h, a)
		})
	}
	checkLayer(t, "heads", 6, func(g *graph, x int) int {
		h := g.linear("trunk", -1, x, 5, initHe, actNone)
		pol := g.linear("policy", -1, h, 3, initHead, actNone)
		val := g.linear("value", -1, h, 1, initHead, actTanh)
		// Join both heads into one output, so L weighs them both.
		return g.add(g.linear("join.p", -1, pol, 2, initHead, actNone), g.linear("join.v", -1, val, 2, initHead, actNone))
	})
}

// TestResidualGradientsShareBuffers checks that the residual stream and
// branch gradients of a resmlp share one buffer, so that backward copies
// nothing for the sums.
func TestResidualGradientsShareBuffers(t *testing.T) {
	for _, ln := range []bool{false, true} {
		var g graph
		g.build(Arch{Kind: KindResMLP, Width: 8, Depth: 3, LayerNorm: ln}, 17, 6)
		ws := newWorkspace(&g, 4, true)
		sums := 0
		for _, o := range g.ops {
			if o.kind != opAdd {
				continue
			}
			sums++
			if !o.aliasIn || !o.aliasIn2 || &ws.dx[o.in][0] != &ws.dx[o.out][0] || &ws.dx[o.in2][0] != &ws.dx[o.out][0] {
				t.Errorf("layer norm %v: a sum's inputs do not share its gradient buffer", ln)
			}
		}
		if sums != 3 {
			t.Fatalf("layer norm %v: %d sums, want 3", ln, sums)
		}
	}
}
