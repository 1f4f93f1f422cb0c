package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// tmpPrefix starts the name of every temporary file the writer makes, so a
// resumed run can remove the leftovers of an interrupted one.
const tmpPrefix = ".tmp-"

// writeFileAtomic writes data to path through a temporary file in the same
// directory that is synced, then renamed over path, and the directory synced,
// so readers see the old file or the new one, never a torn one.
func writeFileAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, tmpPrefix+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
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

// sha256Hex returns the SHA-256 digest of data in hex.
func sha256Hex(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// removeStale deletes the temporary files of an interrupted writer and the
// shard files the manifest does not list (written after the last manifest),
// and returns their names.
func removeStale(dir string, listed map[string]bool) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		n := e.Name()
		stale := strings.HasPrefix(n, tmpPrefix) ||
			((strings.HasPrefix(n, "shard-") || strings.HasPrefix(n, "games-")) && !listed[n])
		if stale && e.Type().IsRegular() {
			if err := os.Remove(filepath.Join(dir, n)); err != nil {
				return removed, err
			}
			removed = append(removed, n)
		}
	}
	return removed, nil
}
