package bench

import (
	"time"

	"github.com/urim-rl/urim/internal/cputime"
)

// cpuTime returns the CPU time the process has used, or 0 where it cannot be
// read.
func cpuTime() time.Duration {
	d, _ := cputime.Process()
	return d
}
