package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"

	"github.com/urim-rl/urim/internal/atomicfile"
)

// tmpPrefix started the name of the temporary files of earlier versions of
// the writer; a resumed run removes those leftovers, and those of
// atomicfile, which writes every file now.
const tmpPrefix = ".tmp-"

// writeFileAtomic writes data to path atomically (package atomicfile).
func writeFileAtomic(path string, data []byte) error {
	return atomicfile.WriteFile(path, data)
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
		stale := strings.HasPrefix(n, tmpPrefix) || atomicfile.IsTemp(n) ||
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
