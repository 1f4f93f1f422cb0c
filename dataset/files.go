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

// removeStale deletes what an interrupted writer of the dataset in dir can
// have left, and returns their names: the files of shard next (the one after
// the manifest's last, written before the manifest that would list it), and
// the temporary files of those and of the manifest. Nothing else is ever
// deleted, however much it looks like a shard: the files that are not listed
// and not shard next were not written by this dataset's writer.
func removeStale(dir string, next int) ([]string, error) {
	tname, gname := shardNames(next)
	own := map[string]bool{tname: true, gname: true, ManifestName: true}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		n := e.Name()
		target, temp := atomicfile.TempOf(n)
		if rest, ok := strings.CutPrefix(n, tmpPrefix); ok && !temp {
			if i := strings.LastIndex(rest, "-"); i > 0 { // ".tmp-NAME-RANDOM"
				target, temp = rest[:i], true
			}
		}
		stale := temp && own[target] || n == tname || n == gname
		if stale && e.Type().IsRegular() {
			if err := os.Remove(filepath.Join(dir, n)); err != nil {
				return removed, err
			}
			removed = append(removed, n)
		}
	}
	return removed, nil
}
