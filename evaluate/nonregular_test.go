//go:build unix

package evaluate

import (
	"testing"

	"github.com/urim-rl/urim/internal/inputfile/inputfiletest"
)

// TestOpenStoreRefusesNonRegular: a store path that is a device, a FIFO or
// a directory is refused at once.
func TestOpenStoreRefusesNonRegular(t *testing.T) {
	inputfiletest.Refused(t, "games.jsonl", func(path string) error {
		_, err := OpenStore(path)
		return err
	})
}
