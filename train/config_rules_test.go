package train

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// owareCheckpoint writes an untrained network for oware and returns its path.
func owareCheckpoint(t *testing.T) string {
	t.Helper()
	net, err := nn.New(nn.Arch{Kind: nn.KindMLP, Width: 8, Depth: 1}, env.Oware, env.EncodingCompact, 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "oware.ckpt")
	if err := nn.Save(path, &nn.Checkpoint{Net: net}); err != nil {
		t.Fatal(err)
	}
	return path
}

// An evaluation opponent whose network is for other rules is a config
// error, named by its key, before the run starts.
func TestConfigRefusesOpponentForOtherRules(t *testing.T) {
	spec := "neural:ckpt=" + owareCheckpoint(t)
	_, err := LoadConfig(filepath.Join("..", "configs", "tiny.yaml"), []string{"output=" + t.TempDir(), "evaluation.opponents=[random, '" + spec + "']"})
	if err == nil || !strings.Contains(err.Error(), "evaluation.opponents") || !strings.Contains(err.Error(), "oware") {
		t.Errorf("urim run with an oware opponent: %v, want an error naming evaluation.opponents and oware", err)
	}
}
