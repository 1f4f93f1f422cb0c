package kernels

import "sync"

// workspace holds the buffers one Sgemm call packs into; calls take one from
// wsPool and give it back, so that a warm program allocates nothing.
type workspace struct {
	b    []float32 // packed panels of op(B)
	a    []float32 // packed edge rows of op(A), or op(A) transposed
	tile []float32 // one register tile of C, for tiles that overhang C
}

var wsPool = sync.Pool{New: func() any { return new(workspace) }}

// grow returns s resized to n elements, reallocating only when its capacity is short.
func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n, n+n/4)
	}
	return s[:n]
}
