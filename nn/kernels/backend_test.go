package kernels

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestDefaultBackendIsTheFastest(t *testing.T) {
	if os.Getenv(EnvVar) != "" {
		t.Skipf("%s is set", EnvVar)
	}
	names := Backends()
	if names[0] != "generic" {
		t.Fatalf("Backends() = %v, want generic first", names)
	}
	if Backend() != names[len(names)-1] {
		t.Fatalf("Backend() = %s, want the last of %v", Backend(), names)
	}
}

// TestEnvVarForcesBackend reruns this test binary with URIM_KERNELS set and
// reads the back-end the child reports.
func TestEnvVarForcesBackend(t *testing.T) {
	if os.Getenv("URIM_KERNELS_CHILD") != "" {
		os.Stdout.WriteString("backend=" + Backend() + "\n")
		if err := EnvError(); err != nil {
			os.Stdout.WriteString("error=" + err.Error() + "\n")
		}
		return
	}
	run := func(value string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestEnvVarForcesBackend$")
		cmd.Env = append(os.Environ(), "URIM_KERNELS_CHILD=1", EnvVar+"="+value)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, name := range append(Backends(), "check") {
		out, err := run(name)
		if err != nil || !strings.Contains(out, "backend="+name+"\n") {
			t.Errorf("%s=%s: child said %q (%v)", EnvVar, name, out, err)
		}
	}
	// A bad name does not end the process (library code never exits): the
	// default stays in use and EnvError names the problem for the command.
	out, err := run("tpu")
	def := Backends()[len(Backends())-1]
	if err != nil || !strings.Contains(out, "backend="+def+"\n") || !strings.Contains(out, `error=kernels: back-end "tpu" is not available`) ||
		!strings.Contains(out, "generic") || !strings.Contains(out, "(set by "+EnvVar+")") {
		t.Errorf("%s=tpu: want the default %s in use and EnvError naming the back-ends, got %q (%v)", EnvVar, def, out, err)
	}
}

// TestBlockRows checks the advised row blocks: 256 under OpenBLAS, 128
// otherwise.
func TestBlockRows(t *testing.T) {
	forEachBackend(t, func(t *testing.T) {
		want := 128
		if Backend() == "openblas" {
			want = 256
		}
		if got := BlockRows(); got != want {
			t.Errorf("BlockRows() = %d, want %d", got, want)
		}
	})
}
