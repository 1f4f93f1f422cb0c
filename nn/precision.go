package nn

import "fmt"

// Precision is the arithmetic of a network's forward passes for inference.
// Training is always float32; at Int8 a Predictor quantises the weights of
// the hidden layers from the float32 ones when they change (no other file
// format) and runs those layers' products in int8 (kernels.Q8Gemm: int8
// weights per output column, uint8 activations per row with a zero point,
// int32 sums). The first layer (it reads the observation), the heads, the
// layer norms and the activations stay float32. docs/nn.md states the
// accuracy.
type Precision uint8

const (
	FP32 Precision = iota // float32 throughout (the default)
	Int8                  // the hidden layers' products in int8
)

// Precisions lists the names ParsePrecision takes.
const Precisions = "fp32|int8"

// String returns "fp32" or "int8".
func (p Precision) String() string {
	if p == Int8 {
		return "int8"
	}
	return "fp32"
}

// ParsePrecision returns the precision named "fp32" or "int8".
func ParsePrecision(s string) (Precision, error) {
	switch s {
	case "fp32":
		return FP32, nil
	case "int8":
		return Int8, nil
	}
	return FP32, fmt.Errorf("nn: unknown precision %q (want %s)", s, Precisions)
}

// int8Op reports whether operation o runs in int8 at Int8: a Linear op of
// the trunk that does not read the observation.
func int8Op(g *graph, o *op) bool {
	return o.kind == opLinear && o.in != 0 && o.out != g.policy && o.out != g.value && o.out != g.score && o.act != actTanh
}

// readers returns, per value of g, how many ops (and heads) read it.
func readers(g *graph) []int {
	reads := make([]int, len(g.widths))
	for _, o := range g.ops {
		reads[o.in]++
		if o.kind == opAdd {
			reads[o.in2]++
		}
	}
	reads[g.policy]++
	reads[g.value]++
	if g.score >= 0 {
		reads[g.score]++
	}
	return reads
}

// normToQ8 returns, per op of g, whether at Int8 it is a layer norm that
// quantises its output straight into the int8 input of the next op
// (kernels.Q8Rows.LayerNormQ8): a norm whose output only that op reads,
// an int8 Linear op.
func normToQ8(g *graph) []bool {
	reads := readers(g)
	fused := make([]bool, len(g.ops))
	for i := 0; i+1 < len(g.ops); i++ {
		o, next := &g.ops[i], &g.ops[i+1]
		fused[i] = o.kind == opNorm && reads[o.out] == 1 && next.in == o.out && int8Op(g, next)
	}
	return fused
}

// addToQ8 returns, per op of g, whether at Int8 it is a residual sum that
// the int8 op before it does in its stores (kernels.Q8GemmAdd): a sum one
// of whose inputs is that op's output, which nothing else reads.
func addToQ8(g *graph) []bool {
	reads := readers(g)
	fused := make([]bool, len(g.ops))
	for i := 1; i < len(g.ops); i++ {
		prev, o := &g.ops[i-1], &g.ops[i]
		fused[i] = o.kind == opAdd && int8Op(g, prev) && reads[prev.out] == 1 && (o.in == prev.out) != (o.in2 == prev.out)
	}
	return fused
}

// AtPrecision returns n as a Model whose forward passes (NewInference) run
// at precision p; at FP32 it returns n itself.
func (n *Net) AtPrecision(p Precision) Model {
	if p == FP32 {
		return n
	}
	return precisionModel{n, p}
}

// precisionModel is a Net whose inferences run at another precision.
type precisionModel struct {
	*Net
	p Precision
}

func (m precisionModel) NewInference(maxBatch, threads int) Inference {
	p := m.Net.NewInference(maxBatch, threads).(*Predictor)
	p.SetPrecision(m.p)
	return p
}
