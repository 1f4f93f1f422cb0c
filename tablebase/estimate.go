package tablebase

import (
	"fmt"

	"github.com/urim-rl/urim/env"
)

// Estimate is what a build of K seeds needs.
type Estimate struct {
	Positions uint64 `json:"positions"`   // entries in the table
	FileBytes uint64 `json:"file_bytes"`  // payload size, ranks in one byte (two double their part)
	PeakBytes uint64 `json:"build_bytes"` // the process's resident peak during the build (measured factor included)
}

// peakFactor is the measured ratio, in percent and rounded up, of a build's
// resident peak to the memory it holds (see EstimateBuild).
const peakFactor = 160

// EstimateBuild returns the size of the table of rules r and K seeds and
// the memory its build needs: every layer's bounds and ranks (4 bytes a
// position), plus, while the biggest layer is solved, its second set of
// bounds and its move cache (8 bytes a move slot), or, at the end, the
// encoded payload.
func EstimateBuild(r env.Rules, k int) (Estimate, error) {
	c, err := compile(r)
	if err != nil {
		return Estimate{}, err
	}
	if k < 0 || k > MaxSeeds {
		return Estimate{}, fmt.Errorf("tablebase: max seeds %d is out of range (0 to %d)", k, MaxSeeds)
	}
	x := newIndex(c.n, k)
	var e Estimate
	var layer uint64
	for n := 0; n <= k; n++ {
		b := x.boards(n)
		p := b * uint64(c.slots(n))
		e.Positions += p
		layer = max(layer, 2*p+b*uint64(8*c.p+1))
	}
	vw := uint64(1)
	if pairCode(k, k) > 255 {
		vw = 2
	}
	e.FileBytes = e.Positions * (vw + 1)
	held := 4*e.Positions + max(layer, e.Positions*(vw+2))
	// The process's resident peak is larger than what the build holds: the
	// Go heap grows past the live data before a collection, and the file is
	// encoded in memory. The K = 20 build on urim peaked at 7.6 GiB for 4.9
	// GiB held (1.55×); peakFactor keeps the estimate above that.
	e.PeakBytes = held * peakFactor / 100
	return e, nil
}
