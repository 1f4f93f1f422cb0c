package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The test binary doubles as urim itself: run as "<binary> urim-cmdtest-main
// ARGS..." it runs the command on ARGS and exits with its status.
func init() {
	if len(os.Args) >= 2 && os.Args[1] == "urim-cmdtest-main" {
		os.Exit(run(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
}

// TestBadKernelsStopsTheCommand: a URIM_KERNELS naming a back-end this build
// lacks is reported by the command (status 2, one line naming the back-ends,
// no stack trace), not by an exit inside package kernels.
func TestBadKernelsStopsTheCommand(t *testing.T) {
	cmd := exec.Command(os.Args[0], "urim-cmdtest-main", "rules")
	cmd.Env = append(os.Environ(), "URIM_KERNELS=tpu")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 {
		t.Fatalf("exit %v, want status 2; output %q", err, out)
	}
	if s := string(out); !strings.HasPrefix(s, `urim: kernels: back-end "tpu" is not available`) ||
		!strings.Contains(s, "generic") || !strings.Contains(s, "URIM_KERNELS") || strings.Contains(s, "goroutine ") {
		t.Errorf("output %q, want one line naming the back-ends and URIM_KERNELS", s)
	}
}
