package env

import "testing"

// perftCounts are the regression numbers of Perft from each preset's start,
// depth 1 to 8. They were produced by this engine after it matched
// OpenSpiel's oware traces and the reference model of property_test.go; the
// first depths are re-derived by that reference model below.
var perftCounts = map[string][]uint64{
	"urim":  {6, 36, 186, 971, 4756, 23555, 112420, 543752},
	"urim7": {7, 49, 300, 1848, 10600, 61388, 343158, 1937997},
	"urim4": {6, 36, 190, 1014, 5219, 27332, 139157, 711378},
	"oware": {6, 36, 190, 1014, 5219, 27332, 139157, 711414},
}

func TestPerft(t *testing.T) {
	maxDepth := 8
	if testing.Short() {
		maxDepth = 6
	}
	for name, want := range perftCounts {
		g, _ := Preset(name)
		s := g.Start()
		for d := 1; d <= maxDepth; d++ {
			if got := Perft(&s, d); got != want[d-1] {
				t.Errorf("%s perft(%d) = %d, want %d", name, d, got, want[d-1])
			}
		}
	}
}

// TestPerftReference recounts the first depths with the reference model.
func TestPerftReference(t *testing.T) {
	var count func(g *refGame, depth int) uint64
	count = func(g *refGame, depth int) uint64 {
		if depth == 0 {
			return 1
		}
		if g.over {
			return 0
		}
		var n uint64
		for _, a := range g.legal() {
			c := &refGame{r: g.r, pits: append([]int(nil), g.pits...), stores: g.stores, player: g.player, seen: map[string]bool{}}
			for k := range g.seen {
				c.seen[k] = true
			}
			c.play(a)
			n += count(c, depth-1)
		}
		return n
	}
	for name, want := range perftCounts {
		r, _ := PresetRules(name)
		for d := 1; d <= 5; d++ {
			if got := count(newRef(r), d); got != want[d-1] {
				t.Errorf("%s: reference perft(%d) = %d, regression number %d", name, d, got, want[d-1])
			}
		}
	}
}
