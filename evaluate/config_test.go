package evaluate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
)

func TestParseConfig(t *testing.T) {
	text := `# a small tournament
rules: urim
format: gauntlet
agents:
  - test-capture
  - random
  - name: first
    spec: test-first
games: 10
opening_plies: 4
paired: true
seed: 3
anchor: random
anchor_elo: 100
`
	cfg, err := ParseConfig([]byte(text), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []Player{{Spec: "test-capture"}, {Spec: "random"}, {Name: "first", Spec: "test-first"}}
	if len(cfg.Agents) != 3 || cfg.Agents[2] != want[2] || cfg.Agents[0] != want[0] {
		t.Errorf("agents %+v", cfg.Agents)
	}
	if cfg.Format != Gauntlet || cfg.Games != 10 || !cfg.Paired || cfg.OpeningPlies != 4 || cfg.Seed != 3 || cfg.AnchorElo != 100 {
		t.Errorf("config %+v", cfg)
	}
	if cfg.anchorIndex() != 1 {
		t.Errorf("anchor index %d", cfg.anchorIndex())
	}
}

func TestParseConfigErrorsNameFileLineKey(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"agents: [random, random#2]\ngamez: 4\n", `t.yaml:2: gamez: unknown key (known: rules,`},
		{"agents: [random, test-first]\ngames: 3\npaired: true\n", `t.yaml:2: games: 3 is odd`},
		{"agents:\n  - random\n  - nosuch:x=1\n", `t.yaml:3: agents[1]: agents: bad spec "nosuch:x=1": unknown agent "nosuch"`},
		{"agents:\n  - random\n  - test-fail:m=1\n", `t.yaml:3: agents[1]: agents: bad spec "test-fail:m=1": unknown parameter m`},
		{"agents:\n  - random\n  - {name: x, spek: random}\n", `t.yaml:3: agents[1].spek: unknown key (known: name, spec)`},
		{"agents: [random, test-first]\ngames: many\n", `t.yaml:2: games: cannot unmarshal !!str ` + "`many`" + ` into int`},
		{"agents: [random, test-first]\ngames: 4\ngames: 5\n", `t.yaml:3: games: mapping key "games" already defined at line 2`},
		{"agents: [random, random]\n", `t.yaml:1: agents[1]: "random" is already agents[0]`},
		{"agents: [random, test-first]\nrules: urim9\n", `t.yaml:2: rules: env: unknown rules preset "urim9"`},
		{"agents: [random, test-first]\nanchor: greedy\n", `t.yaml:2: anchor: "greedy" is not one of the agents`},
		{"agents: [random]\n", `t.yaml:1: agents: 1 listed, a tournament needs at least 2`},
		{"", `t.yaml: agents: the config is empty`},
		{"agents: [random, test-first\n", `t.yaml:`},
	} {
		_, err := ParseConfig([]byte(tc.text), "t.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("config %q:\n error %v\n want  %s", tc.text, err, tc.want)
		}
	}
}

// TestShippedConfigs parses every config under configs/ whose agents are all
// registered (the classical agents may not be built into this test binary).
func TestShippedConfigs(t *testing.T) {
	files, _ := filepath.Glob("../configs/*.yaml")
	for _, f := range files {
		cfg, err := LoadConfig(f)
		var ce *ConfigError
		if errors.As(err, &ce) && strings.HasPrefix(ce.Key, "agents[") && errors.Is(err, agents.ErrSpec) &&
			strings.Contains(err.Error(), "unknown agent") {
			t.Logf("%s: skipped: %v", f, err)
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(cfg.Pairings()) == 0 {
			t.Errorf("%s: no pairings", f)
		}
	}
	if _, err := LoadConfig("no/such/file.yaml"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
