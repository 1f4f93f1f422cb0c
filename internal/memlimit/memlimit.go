// Package memlimit tells how much memory one allocation of urim may take:
// the machine's memory, or less when a cgroup (a container's memory.max),
// an address-space limit (ulimit -v, less what the process has mapped
// already) or Go's memory limit (GOMEMLIMIT) allows less. Sizes a user
// chooses (a replay window, a transposition table, a vectorized
// environment) are checked against it before they are allocated, so a size
// that cannot fit is an error that names it and gives both figures, not a
// process killed out of memory.
package memlimit

import (
	"fmt"
	"math"
	"runtime/debug"
)

// small is the size below which Check does not look: every machine urim
// runs on has that much.
const small = 64 << 20

// Limit returns the most bytes one allocation may take in this process and
// what sets that figure.
func Limit() (uint64, string) {
	best, why := uint64(math.MaxUint64), "nothing"
	consider := func(n uint64, what string) {
		if n < best {
			best, why = n, what
		}
	}
	if l := debug.SetMemoryLimit(-1); l > 0 && l < math.MaxInt64 {
		consider(uint64(l), "Go's memory limit (GOMEMLIMIT)")
	}
	platformLimits(consider)
	return best, why
}

// Check returns an error naming what (a setting and its value, such as
// "replay.window 67108864") if need bytes are more than Limit allows.
func Check(what string, need uint64) error {
	if need < small {
		return nil
	}
	if limit, why := Limit(); need > limit {
		return fmt.Errorf("%s needs %s of memory, more than the %s that %s allows", what, Size(need), Size(limit), why)
	}
	return nil
}

// Size writes n bytes for people: "4.5 GB", "712 MB".
func Size(n uint64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.0f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%d bytes", n)
}
