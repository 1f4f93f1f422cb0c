//go:build unix

package nn

import (
	"testing"

	"github.com/urim-rl/urim/internal/inputfile/inputfiletest"
)

// TestLoadRefusesNonRegular: a checkpoint path that is a device, a FIFO or
// a directory is refused at once.
func TestLoadRefusesNonRegular(t *testing.T) {
	inputfiletest.Refused(t, "net.ckpt", func(path string) error {
		_, err := Load(path)
		return err
	})
}
