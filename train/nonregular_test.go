//go:build unix

package train

import (
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/internal/inputfile/inputfiletest"
)

// TestReadersRefuseNonRegular: a config, a run's state.json or metrics.csv
// that is a device, a FIFO or a directory is refused at once.
func TestReadersRefuseNonRegular(t *testing.T) {
	inputfiletest.Refused(t, "train.yaml", func(path string) error {
		_, err := LoadConfig(path, nil)
		return err
	})
	inputfiletest.Refused(t, stateFile, func(path string) error {
		_, _, err := ReadState(filepath.Dir(path))
		return err
	})
	inputfiletest.Refused(t, metricsFile, func(path string) error {
		_, err := ReadMetrics(path)
		return err
	})
}
