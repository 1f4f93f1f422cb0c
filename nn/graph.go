package nn

// The network is a list of row-wise operations over numbered activations:
// activation 0 is the observation batch, every other one is written by
// exactly one operation. Forward runs the list on blocks of rows (a
// workspace's chunk);
// backward runs it in reverse (see backward.go).

// The number of rows of one unit of work, a workspace's chunk, is set when
// the workspace is made (kernels.BlockRows: 128, or 256 under OpenBLAS) and
// never changes, so the products are cut the same way whatever the number
// of threads.

// normEps is the variance floor of layer normalisation.
const normEps = 1e-5

type opKind uint8

const (
	opLinear opKind = iota // out = act(in·W + b)
	opNorm                 // out = act(gain·(in-mean)/sqrt(var+eps) + bias)
	opReLU                 // out = max(in, 0)
	opAdd                  // out = in + in2
)

type activation uint8

const (
	actNone activation = iota
	actReLU
	actTanh
)

type op struct {
	kind      opKind
	in, in2   int // input activations (in2: opAdd only)
	out       int
	nin, nout int // widths of in and out
	w, b      int // parameter indices: weight and bias, or gain and bias
	act       activation
	accIn     bool // backward adds into in's gradient (another consumer wrote it first)
	accIn2    bool
	// aliasIn and aliasIn2 (opAdd only): the input's gradient shares the
	// buffer of the output's, so that backward has nothing to copy.
	aliasIn, aliasIn2 bool
	noGradInput       bool // in is the observation: no gradient needed
}

type graph struct {
	ops       []op
	widths    []int // width of each activation
	policy    int   // activation of the logits
	value     int   // activation of the values
	score     int   // activation of the score head's output, or -1 without one (the last op writes it)
	specs     []paramSpec
	normCount int
	normIndex []int // per op: index of its mean/rstd buffers, or -1
}

// isHead reports whether activation a is the output of a head (the logits,
// the values or the scores), which spans the batch in every workspace.
func (g *graph) isHead(a int) bool { return a == g.policy || a == g.value || a == g.score }

func (g *graph) newAct(width int) int {
	g.widths = append(g.widths, width)
	return len(g.widths) - 1
}

func (g *graph) param(name string, shape []int, init initKind, decay bool) int {
	g.specs = append(g.specs, paramSpec{name: name, shape: shape, init: init, decay: decay})
	return len(g.specs) - 1
}

func (g *graph) linear(prefix string, i, in, nout int, init initKind, act activation) int {
	nin := g.widths[in]
	out := g.newAct(nout)
	w := g.param(paramName(prefix, i, "w"), []int{nin, nout}, init, true)
	b := g.param(paramName(prefix, i, "b"), []int{nout}, initZero, false)
	g.ops = append(g.ops, op{kind: opLinear, in: in, out: out, nin: nin, nout: nout, w: w, b: b, act: act})
	return out
}

func (g *graph) norm(prefix string, i, in int, act activation) int {
	n := g.widths[in]
	out := g.newAct(n)
	w := g.param(paramName(prefix, i, "g"), []int{n}, initOne, false)
	b := g.param(paramName(prefix, i, "b"), []int{n}, initZero, false)
	g.ops = append(g.ops, op{kind: opNorm, in: in, out: out, nin: n, nout: n, w: w, b: b, act: act})
	return out
}

func (g *graph) relu(in int) int {
	n := g.widths[in]
	out := g.newAct(n)
	g.ops = append(g.ops, op{kind: opReLU, in: in, out: out, nin: n, nout: n})
	return out
}

func (g *graph) add(a, b int) int {
	n := g.widths[a]
	out := g.newAct(n)
	g.ops = append(g.ops, op{kind: opAdd, in: a, in2: b, out: out, nin: n, nout: n})
	return out
}

// preAct is ReLU(Norm(x)) with Norm the identity without layer norm.
func (g *graph) preAct(prefix string, i, x int, ln bool) int {
	if ln {
		return g.norm(prefix, i, x, actReLU)
	}
	return g.relu(x)
}

// build lays out the operations and parameters of arch and returns the
// parameter specifications in layer order.
func (g *graph) build(arch Arch, inDim, actions int) []paramSpec {
	*g = graph{score: -1}
	x := g.newAct(inDim)
	w := arch.Width
	switch arch.Kind {
	case KindResMLP:
		h := g.linear("stem", -1, x, w, initHe, actNone)
		for i := 0; i < arch.Depth; i++ {
			prefix := "block." + itoa(i)
			a := g.preAct(prefix+".ln1", -1, h, arch.LayerNorm)
			if arch.LayerNorm {
				a = g.linear(prefix+".fc1", -1, a, w, initHe, actNone)
				a = g.norm(prefix+".ln2", -1, a, actReLU)
			} else {
				// fc1's output feeds only the ReLU: fused into its bias pass
				a = g.linear(prefix+".fc1", -1, a, w, initHe, actReLU)
			}
			a = g.linear(prefix+".fc2", -1, a, w, initHe, actNone)
			h = g.add(h, a)
		}
		x = g.preAct("final.ln", -1, h, arch.LayerNorm)
	default:
		for i := 0; i < arch.Depth; i++ {
			if arch.LayerNorm {
				x = g.linear("hidden", i, x, w, initHe, actNone)
				x = g.norm(paramName("hidden", i, "ln"), -1, x, actReLU)
			} else {
				x = g.linear("hidden", i, x, w, initHe, actReLU)
			}
		}
	}
	g.policy = g.linear("policy", -1, x, actions, initHead, actNone)
	g.value = g.linear("value", -1, x, 1, initHead, actTanh)
	if arch.Score {
		// Last, so that the other tensors are laid out, listed and drawn
		// from the seed as without it, and a forward pass that needs no
		// score stops one op short (Predictor.Predict).
		g.score = g.linear("score", -1, x, 1, initHead, actTanh)
	}
	g.finish()
	return g.specs
}

// finish sets the gradient flags and numbers the norm buffers.
func (g *graph) finish() {
	seen := make([]bool, len(g.widths))
	for i := len(g.ops) - 1; i >= 0; i-- {
		o := &g.ops[i]
		o.accIn = seen[o.in]
		seen[o.in] = true
		if o.kind == opAdd {
			o.accIn2 = seen[o.in2]
			seen[o.in2] = true
		}
		o.noGradInput = o.in == 0
	}
	g.aliasSums()
	g.normIndex = make([]int, len(g.ops))
	for i, o := range g.ops {
		g.normIndex[i] = -1
		if o.kind == opNorm {
			g.normIndex[i] = g.normCount
			g.normCount++
		}
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// aliasSums sets the alias flags of the sums (opAdd). A sum's gradient is
// its inputs' gradient, so an input may share the sum's gradient buffer
// when nothing else writes into the buffer while a reader still needs the
// values it had:
//
//   - in2 (the residual branch, fc2's output) when the sum is its only
//     consumer: the buffer then holds in2's gradient, which only in2's
//     producer reads;
//   - in (the residual stream) as well, when also the sum is in's last
//     consumer (so backward meets it first), in2's producer is a Linear
//     without activation (it reads its output's gradient without masking
//     it in place), and every other consumer of in, each adding its part
//     into the shared buffer, comes at least two operations before in2's
//     producer: backward runs the parameter pass of operation i beside the
//     row pass of operation i-1, so those additions start only after in2's
//     producer has read the buffer in both passes.
func (g *graph) aliasSums() {
	consumers := make([][]int, len(g.widths))
	producer := make([]int, len(g.widths))
	for i, o := range g.ops {
		consumers[o.in] = append(consumers[o.in], i)
		if o.kind == opAdd {
			consumers[o.in2] = append(consumers[o.in2], i)
		}
		producer[o.out] = i
	}
	for i := range g.ops {
		o := &g.ops[i]
		if o.kind != opAdd || o.in2 == 0 || o.in2 == o.in || len(consumers[o.in2]) != 1 {
			continue
		}
		o.aliasIn2 = true
		p := producer[o.in2]
		if o.in == 0 || o.accIn || g.ops[p].kind != opLinear || g.ops[p].act != actNone {
			continue
		}
		ok := true
		for _, c := range consumers[o.in] {
			if c != i && c >= p-1 {
				ok = false
			}
		}
		o.aliasIn = ok
	}
}
