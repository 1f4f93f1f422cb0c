package train

import (
	"fmt"
	"time"

	"github.com/urim-rl/urim/internal/progress"
)

// progress returns a callback for done of total units: a progress bar on
// Options.Bars (a terminal), or else a plain log line now and then.
func (r *run) progress(desc, unit string) func(done, total int) {
	if r.opt.Bars != nil {
		return progress.Func(r.opt.Bars, desc, unit)
	}
	// Plain lines: one every logEvery at most, so a log stays short.
	var start, last time.Time
	return func(done, total int) {
		now := time.Now()
		if start.IsZero() {
			start, last = now, now
		}
		if now.Sub(last) >= logEvery && done < total {
			last = now
			fmt.Fprintf(r.log, "train: %s: %d/%d %s (%.0fs)\n", desc, done, total, unit, now.Sub(start).Seconds())
		}
	}
}

// logEvery is the interval between plain progress lines.
const logEvery = 15 * time.Second
