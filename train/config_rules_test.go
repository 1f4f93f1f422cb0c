package train

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn/nntest"
)

// An evaluation opponent whose network is for other rules is a config
// error, named by its key, before the run starts.
func TestConfigRefusesOpponentForOtherRules(t *testing.T) {
	spec := "neural:ckpt=" + nntest.Checkpoint(t, env.Oware, 8, 1)
	_, err := LoadConfig(filepath.Join("..", "configs", "tiny.yaml"), []string{"output=" + t.TempDir(), "evaluation.opponents=[random, '" + spec + "']"})
	if err == nil || !strings.Contains(err.Error(), "evaluation.opponents") || !strings.Contains(err.Error(), "oware") {
		t.Errorf("urim run with an oware opponent: %v, want an error naming evaluation.opponents and oware", err)
	}
}
