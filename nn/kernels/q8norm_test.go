package kernels

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestLayerNormQ8IsLayerNormThenQuantize holds the fused step to the two
// steps it replaces, bit for bit, on every back-end: the bytes, the rows'
// scales and zero points, and the means and 1/stds.
func TestLayerNormQ8IsLayerNormThenQuantize(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 8))
	forEachBackend(t, func(t *testing.T) {
		for _, n := range []int{5, 16, 24, 48, 80, 128, 136, 144} {
			for _, rows := range []int{0, 1, 4, 7, 8, 9, 12, 29, 128} {
				for _, relu := range []bool{false, true} {
					name := fmt.Sprintf("n=%d rows=%d relu=%v", n, rows, relu)
					x := q8Input(rng, rows, n, n, false)
					gain, bias := randSlice(rng, n), randSlice(rng, n)
					y := make([]float32, rows*n)
					mean, rstd := make([]float32, rows), make([]float32, rows)
					LayerNorm(y, x, gain, bias, mean, rstd, 1e-5, relu)
					var want Q8Rows
					want.Quantize(rows, n, y, n)
					var got Q8Rows
					gm, gr := make([]float32, rows), make([]float32, rows)
					got.LayerNormQ8(x, gain, bias, gm, gr, 1e-5, relu)
					kp := (n + 3) / 4 * 4
					switch {
					case got.m != rows || got.k != n || got.kp != kp:
						t.Errorf("%s: shape %d×%d (stride %d)", name, got.m, got.k, got.kp)
					case !bytes.Equal(got.data[:rows*kp], want.data[:rows*kp]):
						t.Errorf("%s: the bytes differ", name)
					case !slices.Equal(got.scale[:rows], want.scale[:rows]) || !slices.Equal(got.zero[:rows], want.zero[:rows]):
						t.Errorf("%s: the scales or zero points differ", name)
					case !slices.Equal(gm, mean) || !slices.Equal(gr, rstd):
						t.Errorf("%s: the means or 1/stds differ", name)
					}
				}
			}
		}
	})
}

func TestLayerNormQ8AllocatesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 9))
	const rows, n = 128, 128
	x, gain, bias := randSlice(rng, rows*n), randSlice(rng, n), randSlice(rng, n)
	mean, rstd := make([]float32, rows), make([]float32, rows)
	var q Q8Rows
	forEachBackend(t, func(t *testing.T) {
		call := func() { q.LayerNormQ8(x, gain, bias, mean, rstd, 1e-5, true) }
		call()
		runtime.GC()
		if allocs := testing.AllocsPerRun(20, call); allocs != 0 {
			t.Errorf("%v allocations per call", allocs)
		}
	})
}

func TestLayerNormQ8Panics(t *testing.T) {
	var q Q8Rows
	for name, f := range map[string]func(){
		"no columns": func() { q.LayerNormQ8(nil, nil, nil, make([]float32, 1), make([]float32, 1), 1e-5, false) },
		"short x": func() {
			q.LayerNormQ8(make([]float32, 7), make([]float32, 4), make([]float32, 4), make([]float32, 2), make([]float32, 2), 1e-5, false)
		},
		"short bias": func() {
			q.LayerNormQ8(make([]float32, 8), make([]float32, 4), make([]float32, 3), make([]float32, 2), make([]float32, 2), 1e-5, false)
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
