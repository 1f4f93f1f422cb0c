// Package atomicfile writes files atomically, the one way every package of
// urim writes its outputs: into a temporary file beside the target, which is
// synced and then renamed over the target, and the directory synced, so that
// a reader (or a run killed at any moment) sees the old file or the new one,
// never a torn one. Files are made readable by everyone (mode 0644), but for
// [WritePrivate]'s (0600: secrets).
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urim-rl/urim/internal/inputfile"
)

// Mode is the permission of every file written.
const Mode fs.FileMode = 0o644

// tmpInfix marks the temporary files: "." + base name + tmpInfix + random.
const tmpInfix = ".tmp"

// WriteMkdir is Write that first creates path's missing parent directories
// (mode 0755), for outputs whose directory is the writer's own (a report
// directory, a run directory's subdirectories).
func WriteMkdir(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return Write(path, write)
}

// Write writes the file at path through write, buffered. A path that exists
// and is not a regular file (after following symlinks: a directory, a
// device, a FIFO) is refused before anything is written. Only when write and
// every step after it succeed is path replaced; otherwise path is left as it
// was and the temporary file removed. The parent directory must exist. Errors
// name path (never the temporary file): "writing PATH: ...".
func Write(path string, write func(io.Writer) error) error {
	return writeMode(path, Mode, write)
}

// WritePrivate is [WriteFile] for a file only its owner may read or write
// (mode 0600: a password), which is never readable by others, even for a
// moment.
func WritePrivate(path string, data []byte) error {
	return writeMode(path, 0o600, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

func writeMode(path string, mode fs.FileMode, write func(io.Writer) error) (err error) {
	if fi, serr := os.Stat(path); serr == nil && !fi.Mode().IsRegular() {
		// Renaming over a device or a FIFO would replace it (a test once
		// replaced /dev/null); only a regular file is ever replaced.
		return fmt.Errorf("writing %s: it is %s, not a regular file; give the path of a file", path, inputfile.Kind(fi.Mode()))
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+tmpInfix+"*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("writing %s: cannot create a file in %s: %w", path, dir, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			err = fmt.Errorf("writing %s: %w", path, err)
		}
	}()
	if err := f.Chmod(mode); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// WriteFile writes data to the file at path as [Write] does.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// TempOf returns the base name of the file that the temporary file name (a
// base name) was to replace, and whether name is such a temporary file: a
// caller deletes only the temporary files of its own outputs.
func TempOf(name string) (target string, ok bool) {
	if !strings.HasPrefix(name, ".") {
		return "", false
	}
	i := strings.LastIndex(name, tmpInfix)
	if i < 1 {
		return "", false
	}
	for _, c := range name[i+len(tmpInfix):] {
		if c < '0' || c > '9' {
			return "", false
		}
	}
	return name[1:i], i > 1
}

// IsTemp reports whether name (a base name) is that of a temporary file
// [Write] makes, as an interrupted writer leaves behind.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, tmpInfix)
}
