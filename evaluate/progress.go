package evaluate

import (
	"io"

	"github.com/schollz/progressbar/v3"

	"github.com/urim-rl/urim/internal/progress"
)

// ProgressBar returns a Config.Progress callback that draws a progress bar on
// w (standard error, usually) labelled desc. The bar is created on the first
// call, when the number of games to play is known, and finished on the last.
func ProgressBar(w io.Writer, desc string) func(done, total int) {
	return progress.Func(w, desc, "games")
}

// NewBar returns a progress bar over total games in urim's style.
func NewBar(w io.Writer, total int, desc string) *progressbar.ProgressBar {
	return progress.New(w, total, desc, "games")
}
