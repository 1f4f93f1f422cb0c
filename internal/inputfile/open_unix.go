//go:build unix

package inputfile

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openNonblock opens path for reading. A path that is not a regular file is
// refused before it is opened (opening some devices does something); the
// open itself does not wait for a writer should the path turn into a FIFO
// in between (O_NONBLOCK, which changes nothing for a regular file), and
// Open looks again at what it opened.
func openNonblock(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(fi.Mode()))}
	}
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

func openNonblockIn(root *os.Root, name string) (*os.File, error) {
	fi, err := root.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(fi.Mode()))}
	}
	return root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
