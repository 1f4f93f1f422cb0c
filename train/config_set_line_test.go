package train

import (
	"strings"
	"testing"
)

// TestSetErrorsCiteNoForeignLine: an error that an override causes in a key
// the file does not hold names the override and no line of the file (it
// used to cite the line of the key's section); one in a key the file holds
// cites that line and the override.
func TestSetErrorsCiteNoForeignLine(t *testing.T) {
	_, err := LoadConfig("../configs/tiny.yaml", []string{"optimizer.lr=1e-9"})
	if err == nil || !strings.Contains(err.Error(), "tiny.yaml: optimizer.lr_min") ||
		!strings.Contains(err.Error(), "--set optimizer.lr=1e-9") {
		t.Errorf("--set optimizer.lr=1e-9: %v; want optimizer.lr_min, the --set and no line", err)
	}
	_, err = LoadConfig("../configs/tiny.yaml", []string{"max_plies=2", "selfplay.opening_plies=0"})
	if err == nil || !strings.Contains(err.Error(), "tiny.yaml:32: evaluation.opening_plies") || !strings.Contains(err.Error(), "--set max_plies=2") {
		t.Errorf("--set max_plies=2: %v; want the file's line of evaluation.opening_plies and the --set", err)
	}
}

// TestStopTimeErrorNamesLineAndKey: a bad stop.time in a file is reported
// with its line and key, like every other bad value.
func TestStopTimeErrorNamesLineAndKey(t *testing.T) {
	_, err := ParseConfig([]byte("seed: 1\nstop:\n  time: abc\n"), "t.yaml", nil)
	if err == nil || !strings.Contains(err.Error(), "t.yaml:3: stop.time: ") {
		t.Fatalf("stop.time: abc: %v, want t.yaml:3: stop.time", err)
	}
}
