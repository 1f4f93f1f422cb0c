package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// q8Input returns an m×k matrix of stride ldx: values in ±1 (or only
// positive ones, as after a ReLU), with some rows all zero and one row
// constant.
func q8Input(rng *rand.Rand, m, k, ldx int, positive bool) []float32 {
	x := randSlice(rng, m*ldx)
	for i := 0; i < m; i++ {
		row := x[i*ldx : i*ldx+k]
		switch {
		case i%7 == 3:
			clear(row)
		case i%11 == 5:
			for p := range row {
				row[p] = -0.25
			}
		case positive:
			for p, v := range row {
				row[p] = max(v, 0)
			}
		}
	}
	return x
}

// q8Oracle quantises x with quantizeRow and multiplies with q8Generic: the
// generic code every back-end must match bit for bit.
func q8Oracle(m, k int, x []float32, ldx int, p *PackedQ8, bias []float32, relu bool) (*Q8Rows, []float32) {
	return q8OracleAdd(m, k, x, ldx, p, bias, relu, nil, 0)
}

// q8OracleAdd is q8Oracle with res (stride ldr, or nil) added to the
// result.
func q8OracleAdd(m, k int, x []float32, ldx int, p *PackedQ8, bias []float32, relu bool, res []float32, ldr int) (*Q8Rows, []float32) {
	kp := (k + 3) / 4 * 4
	q := &Q8Rows{m: m, k: k, kp: kp, data: make([]uint8, m*kp), scale: make([]float32, m), zero: make([]int32, m)}
	for i := 0; i < m; i++ {
		q.scale[i], q.zero[i] = quantizeRow(q.data[i*kp:i*kp+kp], x[i*ldx:i*ldx+k])
	}
	c := make([]float32, m*p.n)
	q8Generic(m, q, p, bias, relu, nil, c, p.n)
	for i := range m {
		for j := range p.n {
			if res != nil {
				c[i*p.n+j] += res[i*ldr+j]
			}
		}
	}
	return q, c
}

func TestQ8GemmBitIdenticalToGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	forEachBackend(t, func(t *testing.T) {
		for _, m := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 29, 48, 128} {
			for _, k := range []int{1, 3, 16, 17, 64, 128, 256} {
				for _, n := range []int{1, 6, 32, 64, 96, 128, 256} {
					relu := (m+k+n)%2 == 0
					ldx, ldc := k+(m%3), n+(k%2)
					x := q8Input(rng, m, k, ldx, n%3 == 0)
					w := randSlice(rng, k*n)
					bias := randSlice(rng, n)
					var p PackedQ8
					p.Pack(k, n, w, n)
					wantQ, want := q8Oracle(m, k, x, ldx, &p, bias, relu)
					var q Q8Rows
					q.Quantize(m, k, x, ldx)
					name := fmt.Sprintf("m=%d k=%d n=%d relu=%v", m, k, n, relu)
					for i := 0; i < m; i++ {
						if q.scale[i] != wantQ.scale[i] || q.zero[i] != wantQ.zero[i] {
							t.Fatalf("%s: row %d quantised with scale %v zero %d, want %v %d", name, i, q.scale[i], q.zero[i], wantQ.scale[i], wantQ.zero[i])
						}
					}
					for i, v := range q.data {
						if v != wantQ.data[i] {
							t.Fatalf("%s: quantised byte %d is %d, want %d", name, i, v, wantQ.data[i])
						}
					}
					c := make([]float32, m*ldc)
					Q8Gemm(&q, &p, bias, relu, c, ldc)
					for i := 0; i < m; i++ {
						for j := 0; j < n; j++ {
							if got := c[i*ldc+j]; math.Float32bits(got) != math.Float32bits(want[i*n+j]) {
								t.Fatalf("%s: C[%d][%d] = %v, want %v bit for bit", name, i, j, got, want[i*n+j])
							}
						}
					}
					// Q8GemmAdd: Q8Gemm then the sum, in the stores; into
					// another matrix and in place
					res := randSlice(rng, m*ldc)
					_, wantAdd := q8OracleAdd(m, k, x, ldx, &p, bias, relu, res, ldc)
					Q8GemmAdd(&q, &p, bias, relu, res, c, ldc)
					Q8GemmAdd(&q, &p, bias, relu, res, res, ldc)
					for i := 0; i < m; i++ {
						for j := 0; j < n; j++ {
							w := math.Float32bits(wantAdd[i*n+j])
							if got := c[i*ldc+j]; math.Float32bits(got) != w {
								t.Fatalf("%s: C[%d][%d] + res = %v, want %v bit for bit", name, i, j, got, wantAdd[i*n+j])
							}
							if got := res[i*ldc+j]; math.Float32bits(got) != w {
								t.Fatalf("%s: C[%d][%d] + res in place = %v, want %v bit for bit", name, i, j, got, wantAdd[i*n+j])
							}
						}
					}
				}
			}
		}
	})
}

// TestQ8GemmCloseToFloat bounds the quantisation error of one layer: each
// output is within 3% of the layer's largest |x·W| of the float32 product.
func TestQ8GemmCloseToFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	const m, k, n = 64, 128, 128
	x := q8Input(rng, m, k, k, false)
	w := randSlice(rng, k*n)
	bias := randSlice(rng, n)
	want := make([]float32, m*n)
	Sgemm(false, false, m, n, k, 1, x, k, w, n, 0, want, n)
	AddBias(want, bias)
	var p PackedQ8
	p.Pack(k, n, w, n)
	var q Q8Rows
	q.Quantize(m, k, x, k)
	got := make([]float32, m*n)
	Q8Gemm(&q, &p, bias, false, got, n)
	var big, worst float64
	for i := range want {
		big = math.Max(big, math.Abs(float64(want[i]-bias[i%n])))
		worst = math.Max(worst, math.Abs(float64(got[i]-want[i])))
	}
	if worst > 0.03*big {
		t.Fatalf("largest error %.4g, over 3%% of the largest product %.4g", worst, big)
	}
}

func TestQ8AllocatesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 3))
	const m, k, n = 128, 128, 128
	x, w, bias := randSlice(rng, m*k), randSlice(rng, k*n), randSlice(rng, n)
	c := make([]float32, m*n)
	var p PackedQ8
	p.Pack(k, n, w, n)
	var q Q8Rows
	forEachBackend(t, func(t *testing.T) {
		for _, rows := range []int{1, 7, m} {
			call := func() {
				q.Quantize(rows, k, x, k)
				Q8Gemm(&q, &p, bias, true, c, n)
			}
			call()
			runtime.GC()
			if allocs := testing.AllocsPerRun(20, call); allocs != 0 {
				t.Errorf("%d rows: %v allocations per call", rows, allocs)
			}
		}
	})
}

func TestQ8Panics(t *testing.T) {
	var p PackedQ8
	p.Pack(8, 16, make([]float32, 8*16), 16)
	var q Q8Rows
	for name, f := range map[string]func(){
		"k mismatch": func() {
			q.Quantize(2, 4, make([]float32, 8), 4)
			Q8Gemm(&q, &p, make([]float32, 16), false, make([]float32, 32), 16)
		},
		"short bias": func() {
			q.Quantize(2, 8, make([]float32, 16), 8)
			Q8Gemm(&q, &p, make([]float32, 15), false, make([]float32, 32), 16)
		},
		"short res": func() {
			q.Quantize(2, 8, make([]float32, 16), 8)
			Q8GemmAdd(&q, &p, make([]float32, 16), false, make([]float32, 31), make([]float32, 32), 16)
		},
		"short C": func() {
			q.Quantize(2, 8, make([]float32, 16), 8)
			Q8Gemm(&q, &p, make([]float32, 16), false, make([]float32, 31), 16)
		},
		"short X":     func() { q.Quantize(2, 8, make([]float32, 15), 8) },
		"empty W":     func() { p.Pack(0, 4, nil, 4) },
		"short W":     func() { p.Pack(4, 4, make([]float32, 15), 4) },
		"negative m":  func() { q.Quantize(-1, 8, nil, 8) },
		"zero k rows": func() { q.Quantize(1, 0, nil, 0) },
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

// BenchmarkQ8Layer compares one 128-row block of a 128×128 layer in int8
// (quantisation included) with the float32 packed product, bias and ReLU.
func BenchmarkQ8Layer(b *testing.B) {
	rng := rand.New(rand.NewPCG(29, 4))
	const m, k, n = 128, 128, 128
	x, w, bias := randSlice(rng, m*k), randSlice(rng, k*n), randSlice(rng, n)
	c := make([]float32, m*n)
	b.Run("fp32", func(b *testing.B) {
		var p PackedB
		p.Pack(k, n, w, n)
		for b.Loop() {
			SgemmPackedBias(m, x, k, &p, bias, true, c, n)
		}
	})
	b.Run("int8", func(b *testing.B) {
		var p PackedQ8
		p.Pack(k, n, w, n)
		var q Q8Rows
		for b.Loop() {
			q.Quantize(m, k, x, k)
			Q8Gemm(&q, &p, bias, true, c, n)
		}
	})
}
