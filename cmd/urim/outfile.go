package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urim-rl/urim/evaluate"
)

// checkOutFile fails before a long job, rather than after it, if no file
// can be written at path: path is a directory, or its directory cannot be
// made or written to.
func checkOutFile(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory; want the name of a file", path)
	}
	return evaluate.CheckWritableDir(filepath.Dir(path))
}
