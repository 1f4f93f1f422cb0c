package evaluate

import (
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	text := `# a small tournament
rules: urim
format: gauntlet
agents:
  - greedy
  - random
  - name: shallow
    spec: alphabeta:depth=1
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
	want := []Player{{Spec: "greedy"}, {Spec: "random"}, {Name: "shallow", Spec: "alphabeta:depth=1"}}
	if len(cfg.Agents) != 3 || cfg.Agents[2].Name != want[2].Name || cfg.Agents[2].Spec != want[2].Spec || cfg.Agents[0].Spec != want[0].Spec {
		t.Errorf("agents %+v", cfg.Agents)
	}
	if cfg.Format != Gauntlet || cfg.Games != 10 || !cfg.Paired || cfg.OpeningPlies != 4 || cfg.Seed != 3 || cfg.AnchorElo != 100 {
		t.Errorf("config %+v", cfg)
	}
	if cfg.anchorIndex() != 1 {
		t.Errorf("anchor index %d", cfg.anchorIndex())
	}
}

// TestConfigDefaultsAreTheFlagDefaults: a config that lists only agents is
// the tournament urim eval plays for the same agents (issue 9: files used to
// default to no openings, unpaired, seed 0; flags to 4 paired plies, seed 1).
func TestConfigDefaultsAreTheFlagDefaults(t *testing.T) {
	cfg, err := ParseConfig([]byte("agents: [random, greedy]\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultSetup()
	if cfg.Setup.Rules != d.Rules || cfg.OpeningPlies != 4 || !cfg.Paired || cfg.Seed != 1 || cfg.Games != DefaultGames || cfg.Format != RoundRobin {
		t.Errorf("defaults of a config file: %+v", cfg)
	}
}

func TestParseConfigErrorsNameFileLineKey(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"agents: [random, random#2]\ngamez: 4\n", `t.yaml:2: gamez: unknown key (known: rules, max_plies, opening_plies, paired, seed, workers, format, agents, games, anchor, anchor_elo, prior_draws, store, output)`},
		{"agents: [random, greedy]\ngames: 3\npaired: true\n", `t.yaml:2: games: 3 is odd`},
		{"agents: [random, greedy]\ngames: 3\n", `t.yaml:2: games: 3 is odd`},
		{"agents:\n  - random\n  - nosuch:x=1\n", `t.yaml:3: agents[1]: agents: bad spec "nosuch:x=1": unknown agent "nosuch"`},
		{"agents:\n  - random\n  - mcts:simz=1\n", `t.yaml:3: agents[1]: agents: bad spec "mcts:simz=1": unknown parameter simz`},
		{"agents:\n  - random\n  - {name: x, spek: random}\n", `t.yaml:3: agents[1].spek: unknown key (known: name, spec)`},
		{"agents: [random, greedy]\ngames: many\n", `t.yaml:2: games: want an integer, got "many"`},
		{"agents: [random, greedy]\ngames: 4.5\n", `t.yaml:2: games: want an integer, got "4.5"`},
		{"agents: [random, greedy]\nprior_draws: .nan\n", `t.yaml:2: prior_draws: .nan is not a finite number`},
		{"agents: [random, greedy]\nanchor_elo: -.inf\n", `t.yaml:2: anchor_elo: -.inf is not a finite number`},
		{"agents: [random, greedy]\n---\ngames: 2\n", `t.yaml:2: a second YAML document`},
		{"agents: [random, greedy]\ngames: 4\ngames: 6\n", `t.yaml:3: games: given twice (first at line 2)`},
		{"agents: [random, random]\n", `t.yaml:1: agents[1]: "random" is already agents[0]`},
		{"agents: [random, greedy]\nrules: urim9\n", `t.yaml:2: rules: env: unknown rules preset "urim9"`},
		{"agents: [random, greedy]\nanchor: mcts\n", `t.yaml:2: anchor: "mcts" is not one of the agents`},
		{"agents: [random, greedy]\nopening_plies: 41\n", `t.yaml:2: opening_plies: 41 is out of range (0 to 40)`},
		{"agents: [random]\n", `t.yaml:1: agents: 1 listed, a tournament needs at least 2`},
		{"", `t.yaml: the document is empty`},
		{"agents: [random, greedy\n", `t.yaml:`},
	} {
		_, err := ParseConfig([]byte(tc.text), "t.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("config %q:\n error %v\n want  %s", tc.text, err, tc.want)
		}
	}
}

// TestValidateStartsNoEngine: validating a config whose external engine
// does not exist succeeds (the engine would be started when games begin).
func TestValidateStartsNoEngine(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Agents = PlayersFromSpecs([]string{"random", "external:cmd='/nonexistent/engine'"})
	if err := cfg.Validate(); err != nil {
		t.Fatalf("Validate built the external engine: %v", err)
	}
}

// TestConfigGamesZero checks that "games: 0" in a file is an error, as
// --games 0 is, instead of meaning DefaultGames.
func TestConfigGamesZero(t *testing.T) {
	_, err := ParseConfig([]byte("agents: [random, greedy]\ngames: 0\n"), "t.yaml")
	if err == nil || !strings.Contains(err.Error(), "t.yaml:2: games: 0 games") {
		t.Fatalf("games: 0 gave %v", err)
	}
	cfg, err := ParseConfig([]byte("agents: [random, greedy]\n"), "t.yaml")
	if err != nil || cfg.Games != DefaultGames {
		t.Fatalf("absent games: %d, %v", cfg.Games, err)
	}
}
