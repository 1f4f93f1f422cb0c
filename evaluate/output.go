package evaluate

import (
	"fmt"
	"os"
	"path/filepath"
)

// CheckWritableDir makes dir if it is missing and checks that a file can be
// created in it, so that a long run fails before it plays rather than after.
func CheckWritableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("evaluate: cannot write to %s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, ".urim-write-check*")
	if err != nil {
		return fmt.Errorf("evaluate: cannot write to %s: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// SaveReports writes the reports of res to dir as [WriteReports] does. If
// that fails, the finished results are not dropped: it writes them to a new
// directory under the system's temporary directory instead and returns that
// directory as fallback, with the first error.
func SaveReports(dir string, res *Result) (paths []string, fallback string, err error) {
	paths, err = WriteReports(dir, res)
	if err == nil {
		return paths, "", nil
	}
	tmp, terr := os.MkdirTemp("", "urim-eval-")
	if terr != nil {
		return paths, "", err
	}
	more, ferr := WriteReports(tmp, res)
	if ferr != nil {
		return paths, "", err
	}
	return append(paths, more...), filepath.Clean(tmp), err
}

// rescueStore is called when a store cannot be saved where it belongs: it
// writes the store to a new file under the system's temporary directory, so
// that finished games are not lost, and returns saveErr with that file's
// path (or saveErr alone if that fails too).
func rescueStore(s *Store, saveErr error) error {
	f, err := os.CreateTemp("", "urim-store-*.jsonl")
	if err != nil {
		return saveErr
	}
	name := f.Name()
	f.Close()
	orig := s.path
	s.path = name
	err = s.Save()
	s.path = orig
	if err != nil {
		os.Remove(name)
		return saveErr
	}
	return fmt.Errorf("%w; the games are saved in %s instead (give it as the store to reuse them)", saveErr, name)
}
