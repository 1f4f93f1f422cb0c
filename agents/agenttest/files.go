package agenttest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// Helpers the tests of several agent packages share.

// SmallArch keeps the networks of the tests fast.
var SmallArch = nn.Arch{Kind: nn.KindResMLP, Width: 32, Depth: 1, LayerNorm: true}

// WriteNet saves an untrained network for preset to a file in dir; zero
// clears every weight, so its priors are uniform and its values 0.
func WriteNet(t testing.TB, dir, preset string, zero bool) string {
	t.Helper()
	rules, err := env.PresetRules(preset)
	if err != nil {
		t.Fatal(err)
	}
	net, err := nn.New(SmallArch, rules, env.EncodingCompact, 1)
	if err != nil {
		t.Fatal(err)
	}
	if zero {
		for _, p := range net.Params() {
			clear(p.W)
		}
	}
	path := filepath.Join(dir, preset+".ckpt")
	if zero {
		path = filepath.Join(dir, preset+"-zero.ckpt")
	}
	if err := nn.Save(path, &nn.Checkpoint{Net: net}); err != nil {
		t.Fatal(err)
	}
	return path
}

// SpecError checks that agents.New(spec) fails with a message
// containing want.
func SpecError(t *testing.T, spec, want string) {
	t.Helper()
	a, err := agents.New(spec, 1)
	if err == nil {
		t.Errorf("New(%q) = %v, want an error containing %q", spec, a, want)
		return
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("New(%q) error:\n  %v\nwant it to contain\n  %s", spec, err, want)
	}
}
