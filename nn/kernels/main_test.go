package kernels

import (
	"fmt"
	"os"
	"testing"
)

// TestMain refuses to run the tests and benchmarks on the default back-end
// when URIM_KERNELS named another that is not available, as the command does:
// CI runs this package once per back-end, and a typo must not pass silently.
// The child processes of TestEnvVarForcesBackend set a bad name on purpose.
func TestMain(m *testing.M) {
	if err := EnvError(); err != nil && os.Getenv("URIM_KERNELS_CHILD") == "" {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
