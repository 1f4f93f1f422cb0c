//go:build unix

package tablebase

import (
	"testing"

	"github.com/urim-rl/urim/internal/inputfile/inputfiletest"
)

// TestLoadRefusesNonRegular: a table path that is a device, a FIFO or a
// directory is refused at once.
func TestLoadRefusesNonRegular(t *testing.T) {
	inputfiletest.Refused(t, "k4.tb", func(path string) error {
		_, err := Load(path)
		return err
	})
}
