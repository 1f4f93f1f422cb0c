package kernels

import "sync"

// workspace holds the buffers one Sgemm call packs into. Calls take one from
// the free list and give it back, so that a warm program allocates nothing;
// unlike a sync.Pool, the list survives garbage collections, and it holds at
// most as many workspaces as there were concurrent calls.
type workspace struct {
	b     []float32 // packed panels of op(B), or op(B) transposed
	a     []float32 // packed edge rows of op(A), or op(A) transposed
	tile  []float32 // one register tile of C, for tiles that overhang C
	check []float32 // a copy of C for the check back-end
}

var wsFree struct {
	sync.Mutex
	list []*workspace
}

// getWorkspace takes a workspace from the free list, or makes one.
func getWorkspace() *workspace {
	wsFree.Lock()
	defer wsFree.Unlock()
	if n := len(wsFree.list); n > 0 {
		ws := wsFree.list[n-1]
		wsFree.list = wsFree.list[:n-1]
		return ws
	}
	return new(workspace)
}

// putWorkspace returns ws to the free list.
func putWorkspace(ws *workspace) {
	wsFree.Lock()
	wsFree.list = append(wsFree.list, ws)
	wsFree.Unlock()
}

// grow returns s resized to n elements, reallocating only when its capacity is short.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}
