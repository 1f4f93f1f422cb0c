package train

import (
	"path/filepath"
	"testing"
)

// tinyConfig is configs/tiny.yaml (AlphaZero, registered by the test
// binary's train/all) writing to dir, with overrides.
func tinyConfig(t *testing.T, dir string, sets ...string) Config {
	t.Helper()
	cfg, err := LoadConfig(filepath.Join("..", "configs", "tiny.yaml"), append([]string{"output=" + dir}, sets...))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}
