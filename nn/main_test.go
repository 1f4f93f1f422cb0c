package nn

import (
	"fmt"
	"os"
	"testing"

	"github.com/urim-rl/urim/nn/kernels"
)

// TestMain refuses to run the tests and benchmarks on the default back-end
// when URIM_KERNELS named another that is not available, as the command does:
// CI runs this package once per back-end, and a typo must not pass silently.
func TestMain(m *testing.M) {
	if err := kernels.EnvError(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
