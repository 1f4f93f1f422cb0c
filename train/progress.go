package train

import (
	"fmt"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress returns a callback for done of total units: a progress bar on
// Options.Bars (a terminal), or else a plain log line at every quarter.
func (r *run) progress(desc, unit string) func(done, total int) {
	if r.opt.Bars != nil {
		var bar *progressbar.ProgressBar
		return func(done, total int) {
			if bar == nil {
				bar = progressbar.NewOptions(total,
					progressbar.OptionSetWriter(r.opt.Bars),
					progressbar.OptionSetDescription(desc),
					progressbar.OptionShowCount(),
					progressbar.OptionSetItsString(unit),
					progressbar.OptionShowIts(),
					progressbar.OptionSetWidth(30),
					progressbar.OptionThrottle(100*time.Millisecond),
					progressbar.OptionClearOnFinish(),
				)
			}
			_ = bar.Set(done)
			if done == total {
				_ = bar.Finish()
			}
		}
	}
	last := 0
	return func(done, total int) {
		q := 4 * done / max(total, 1)
		if q > last {
			last = q
			fmt.Fprintf(r.log, "train: %s: %d/%d %s\n", desc, done, total, unit)
		}
	}
}
