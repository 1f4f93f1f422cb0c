package dataset

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadManifestOfAFile: a file given as the dataset directory is named
// as such, as a missing dataset, not as a broken manifest.
func TestReadManifestOfAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "table.tb")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadManifest(file)
	if err == nil || !strings.Contains(err.Error(), file+" is not a directory") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadManifest(file) = %v", err)
	}
}
