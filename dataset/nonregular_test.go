//go:build unix

package dataset

import (
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/internal/inputfile/inputfiletest"
)

// TestReadersRefuseNonRegular: a manifest or a config that is a device, a
// FIFO or a directory is refused at once.
func TestReadersRefuseNonRegular(t *testing.T) {
	inputfiletest.Refused(t, ManifestName, func(path string) error {
		_, err := ReadManifest(filepath.Dir(path))
		return err
	})
	inputfiletest.Refused(t, "selfplay.yaml", func(path string) error {
		_, err := LoadConfig(path)
		return err
	})
}
