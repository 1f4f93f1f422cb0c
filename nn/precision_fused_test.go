package nn

import (
	"fmt"
	"math"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn/kernels"
)

// TestInt8FusedStepsChangeNothing holds the int8 forward pass with its fused
// steps (a layer norm quantising into the next layer's input, a residual sum
// in the product's stores) to the same pass with every step on its own, bit
// for bit, on every back-end, for widths that take the assembly (128) and
// widths that do not (40), with and without layer norm.
func TestInt8FusedStepsChangeNothing(t *testing.T) {
	saved := kernels.Backend()
	defer kernels.Use(saved)
	for _, be := range kernels.Backends() {
		if err := kernels.Use(be); err != nil {
			t.Fatal(err)
		}
		for _, arch := range []Arch{
			{Kind: KindResMLP, Depth: 2, Width: 128, LayerNorm: true},
			{Kind: KindResMLP, Depth: 2, Width: 40, LayerNorm: true},
			{Kind: KindResMLP, Depth: 2, Width: 64},
			{Kind: KindMLP, Depth: 2, Width: 128, LayerNorm: true},
		} {
			net, err := New(arch, env.Urim, env.EncodingCompact, 3)
			if err != nil {
				t.Fatal(err)
			}
			for _, batch := range []int{1, 7, 300} {
				name := fmt.Sprintf("%s %s batch %d", be, arch, batch)
				obs, _ := testObs(t, env.Urim, env.EncodingCompact, batch, 5)
				fused := net.NewPredictor(batch)
				fused.SetPrecision(Int8)
				plain := net.NewPredictor(batch)
				plain.SetPrecision(Int8)
				plain.ws.toQ8 = make([]bool, len(net.g.ops))
				plain.ws.addQ8 = make([]bool, len(net.g.ops))
				lf, vf := fused.Predict(obs, batch)
				lp, vp := plain.Predict(obs, batch)
				for i := range lf {
					if math.Float32bits(lf[i]) != math.Float32bits(lp[i]) {
						t.Fatalf("%s: logit %d fused %v, step by step %v", name, i, lf[i], lp[i])
					}
				}
				for i := range vf {
					if math.Float32bits(vf[i]) != math.Float32bits(vp[i]) {
						t.Fatalf("%s: value %d fused %v, step by step %v", name, i, vf[i], vp[i])
					}
				}
			}
		}
	}
}
