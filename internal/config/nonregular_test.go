//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/internal/inputfile/inputfiletest"
)

// TestDecodeFileRefusesNonRegular: a config path that is a device, a FIFO
// or a directory is refused at once.
func TestDecodeFileRefusesNonRegular(t *testing.T) {
	inputfiletest.Refused(t, "c.yaml", func(path string) error {
		var v struct{ A int }
		return DecodeFile(path, &v)
	})
}

// TestDecodeFileSize: a config larger than MaxFileBytes is refused with the
// bound in the error, from a file or a reader.
func TestDecodeFileSize(t *testing.T) {
	big := "a: 1\n" + strings.Repeat("# padding\n", MaxFileBytes/10+1)
	path := filepath.Join(t.TempDir(), "big.yaml")
	os.WriteFile(path, []byte(big), 0o644)
	var v struct{ A int }
	for _, err := range []error{DecodeFile(path, &v), Decode(strings.NewReader(big), "big.yaml", &v)} {
		if err == nil || !strings.Contains(err.Error(), "1048576") {
			t.Errorf("a %d-byte config: %v, want the bound %d named", len(big), err, MaxFileBytes)
		}
	}
}
