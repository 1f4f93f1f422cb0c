// Package progress draws urim's progress bars: every long job (a
// tournament, a benchmark, self-play) shows one on standard error, in one
// style.
package progress

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// New returns a bar on w over total items (named items, "games" say),
// labelled desc. A nil w draws nothing.
func New(w io.Writer, total int, desc, items string) *progressbar.ProgressBar {
	if w == nil {
		w = io.Discard
	}
	return progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionSetItsString(items),
		progressbar.OptionShowIts(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { _, _ = io.WriteString(w, "\n") }),
	)
}

// Func returns a callback func(done, total int) that draws a bar on w: the
// bar is created on the first call, when the total is known, and finished
// when done reaches total. A nil w draws nothing.
func Func(w io.Writer, desc, items string) func(done, total int) {
	var bar *progressbar.ProgressBar
	return func(done, total int) {
		if bar == nil {
			bar = New(w, total, desc, items)
		}
		_ = bar.Set(done)
		if done == total {
			_ = bar.Finish()
		}
	}
}
