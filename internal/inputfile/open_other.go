//go:build !unix

package inputfile

import (
	"fmt"
	"io/fs"
	"os"
)

// openNonblock looks at path before opening it, where O_NONBLOCK does not
// exist, so that a named pipe is refused without opening it.
func openNonblock(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(fi.Mode()))}
	}
	return os.Open(path)
}

func openNonblockIn(root *os.Root, name string) (*os.File, error) {
	fi, err := root.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("%w (%s)", ErrNotRegular, Kind(fi.Mode()))}
	}
	return root.Open(name)
}
