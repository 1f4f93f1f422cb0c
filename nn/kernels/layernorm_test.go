package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// lnWidths hits the 32-wide and 8-wide loops of the SIMD kernels and the
// widths they leave to the generic code.
var lnWidths = []int{1, 7, 8, 16, 24, 40, 128, 136, 13}

// lnRef is LayerNorm in float64 on float32 inputs.
func lnRef(x, gain, bias []float32, eps float64, relu bool) (y []float64, mean, rstd float64) {
	n := float64(len(x))
	for _, v := range x {
		mean += float64(v)
	}
	mean /= n
	var q float64
	for _, v := range x {
		q += (float64(v) - mean) * (float64(v) - mean)
	}
	rstd = 1 / math.Sqrt(q/n+eps)
	y = make([]float64, len(x))
	for j, v := range x {
		y[j] = float64(gain[j])*(float64(v)-mean)*rstd + float64(bias[j])
		if relu && !(y[j] > 0) {
			y[j] = 0
		}
	}
	return y, mean, rstd
}

// near reports whether got is within tol of want, relative to scale.
func near(got float32, want, scale, tol float64) bool {
	return math.Abs(float64(got)-want) <= tol*(1+scale)
}

func TestLayerNorm(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(21, 22))
		for _, n := range lnWidths {
			for _, relu := range []bool{false, true} {
				const rows = 5
				x := randSlice(rng, rows*n)
				for i := range x {
					x[i] = x[i]*3 + 0.5 // off-centre, so the mean matters
				}
				gain, bias := randSlice(rng, n), randSlice(rng, n)
				y := make([]float32, rows*n)
				mean, rstd := make([]float32, rows), make([]float32, rows)
				LayerNorm(y, x, gain, bias, mean, rstd, 1e-5, relu)
				for r := 0; r < rows; r++ {
					want, m, s := lnRef(x[r*n:(r+1)*n], gain, bias, 1e-5, relu)
					name := fmt.Sprintf("n=%d relu=%v row %d", n, relu, r)
					if !near(mean[r], m, math.Abs(m), 1e-5) || !near(rstd[r], s, s, 1e-5) {
						t.Fatalf("%s: mean, rstd = %g, %g, want %g, %g", name, mean[r], rstd[r], m, s)
					}
					for j, w := range want {
						if !near(y[r*n+j], w, math.Abs(w), 1e-5) {
							t.Fatalf("%s: y[%d] = %g, want %g", name, j, y[r*n+j], w)
						}
						if relu && y[r*n+j] < 0 {
							t.Fatalf("%s: y[%d] = %g after the ReLU", name, j, y[r*n+j])
						}
					}
				}
			}
		}
	})
}

func TestLayerNormBackward(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(23, 24))
		for _, n := range lnWidths {
			for _, relu := range []bool{false, true} {
				for _, acc := range []bool{false, true} {
					const rows = 4
					x := randSlice(rng, rows*n)
					for i := range x {
						x[i] = x[i]*2 - 0.3
					}
					gain, bias := randSlice(rng, n), randSlice(rng, n)
					y := make([]float32, rows*n)
					mean, rstd := make([]float32, rows), make([]float32, rows)
					// The ReLU's mask is the forward output's, exactly:
					// the backward pass recomputes it.
					LayerNorm(y, x, gain, bias, mean, rstd, 1e-5, relu)
					dy0 := randSlice(rng, rows*n)
					dy := append([]float32(nil), dy0...)
					dx0 := randSlice(rng, rows*n)
					dx := append([]float32(nil), dx0...)
					dg0, db0 := randSlice(rng, n), randSlice(rng, n)
					dg, db := append([]float32(nil), dg0...), append([]float32(nil), db0...)
					LayerNormBackward(dx, dy, x, gain, bias, mean, rstd, dg, db, relu, acc)

					wdg, wdb := make([]float64, n), make([]float64, n)
					for j := range wdg {
						wdg[j], wdb[j] = float64(dg0[j]), float64(db0[j])
					}
					for r := 0; r < rows; r++ {
						name := fmt.Sprintf("n=%d relu=%v acc=%v row %d", n, relu, acc, r)
						m, s := float64(mean[r]), float64(rstd[r])
						d := make([]float64, n)
						var s1, s2, scale float64
						for j := range d {
							i := r*n + j
							d[j] = float64(dy0[i])
							if relu && !(y[i] > 0) {
								d[j] = 0
							}
							if !same(dy[i], dy0[i]) {
								t.Fatalf("%s: dy[%d] changed from %g to %g", name, j, dy0[i], dy[i])
							}
							xh := (float64(x[i]) - m) * s
							g := d[j] * float64(gain[j])
							s1 += g
							s2 += g * xh
							wdg[j] += d[j] * xh
							wdb[j] += d[j]
							scale = max(scale, math.Abs(g)*s)
						}
						s1 /= float64(n)
						s2 /= float64(n)
						for j := range d {
							i := r*n + j
							xh := (float64(x[i]) - m) * s
							want := s * (d[j]*float64(gain[j]) - s1 - xh*s2)
							if acc {
								want += float64(dx0[i])
							}
							if !near(dx[i], want, scale+math.Abs(want), 1e-5) {
								t.Fatalf("%s: dx[%d] = %g, want %g", name, j, dx[i], want)
							}
						}
					}
					for j := range wdg {
						if !near(dg[j], wdg[j], math.Abs(wdg[j])+rows, 1e-5) || !near(db[j], wdb[j], math.Abs(wdb[j])+rows, 1e-5) {
							t.Fatalf("n=%d relu=%v acc=%v: dg, db [%d] = %g, %g, want %g, %g", n, relu, acc, j, dg[j], db[j], wdg[j], wdb[j])
						}
					}
				}
			}
		}
	})
}
