//go:build unix

package inputfile

import (
	"os"
	"syscall"
)

// openNonblock opens path for reading without waiting for a writer when it
// is a FIFO (O_NONBLOCK, which changes nothing for a regular file), so that
// Open can look at what it opened and refuse it.
func openNonblock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
