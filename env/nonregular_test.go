//go:build unix

package env

import (
	"testing"

	"github.com/urim-rl/urim/internal/inputfile/inputfiletest"
)

// TestLoadRulesRefusesNonRegular: a rules file that is a device, a FIFO or
// a directory is refused at once.
func TestLoadRulesRefusesNonRegular(t *testing.T) {
	inputfiletest.Refused(t, "rules.yaml", func(path string) error {
		_, err := FindRules(path)
		return err
	})
}
