package evaluate

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// ProgressBar returns a Config.Progress callback that draws a progress bar on
// w (standard error, usually) labelled desc. The bar is created on the first
// call, when the number of games to play is known, and finished on the last.
func ProgressBar(w io.Writer, desc string) func(done, total int) {
	var bar *progressbar.ProgressBar
	return func(done, total int) {
		if bar == nil {
			bar = NewBar(w, total, desc)
		}
		_ = bar.Set(done)
		if done == total {
			_ = bar.Finish()
		}
	}
}

// NewBar returns a progress bar over total games in urim's style.
func NewBar(w io.Writer, total int, desc string) *progressbar.ProgressBar {
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString("games"),
		progressbar.OptionShowIts(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { _, _ = io.WriteString(w, "\n") }),
	)
}
