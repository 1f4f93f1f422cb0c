package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urim-rl/urim/evaluate"
)

// checkOutFile fails before a long job, rather than after it, if no file
// can be written at path: path is a directory, a FIFO or a device, or its
// directory cannot be made or written to.
func checkOutFile(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory; want the name of a file", path)
	} else if err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%v); want the name of a file, which the output replaces", path, fi.Mode().Type())
	}
	return evaluate.CheckWritableDir(filepath.Dir(path))
}
