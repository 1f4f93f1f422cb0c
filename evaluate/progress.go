package evaluate

import (
	"io"

	"github.com/urim-rl/urim/internal/progress"
)

// ProgressBar returns a Config.Progress callback that reports on w
// (standard error, usually) labelled desc, as every urim command does: a
// bar when w is a terminal, a plain line every few seconds otherwise.
func ProgressBar(w io.Writer, desc string) func(done, total int) {
	return progress.To(w, false).Func(desc, "games")
}
