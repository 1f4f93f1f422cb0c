package train

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestConfigErrors(t *testing.T) {
	cases := []struct {
		name, yaml string
		sets       []string
		want       string // the whole message must contain it
	}{
		{"unknown key", "rules: urim\nsearch:\n  sims: 50\n  simz: 3\n", nil,
			"train: config f.yaml:4: search.simz: unknown key (known: sims, c_puct, dirichlet_alpha, dirichlet_fraction, temperature, temperature_plies, final_temperature, leaf_batch, playout_cap, root_policy_temperature, forced_playouts, endgame_boost, root, gumbel, precision)"},
		{"unknown top-level key", "rulez: urim\n", nil, "f.yaml:1: rulez: unknown key (known: algorithm, rules, rules_file,"},
		{"bad type", "search:\n  sims: abc\n", nil, `f.yaml:2: search.sims: want an integer, got "abc"`},
		{"fraction for an integer", "selfplay:\n  games_per_iteration: 1.5\n", nil, `f.yaml:2: selfplay.games_per_iteration: want an integer, got "1.5"`},
		{"mapping expected", "search: 3\n", nil, "f.yaml:1: search: want a mapping of keys"},
		{"list expected", "evaluation:\n  opponents: {a: 1}\n", nil, "f.yaml:2: evaluation.opponents: want a list"},
		{"bad range", "search:\n  sims: -4\n", nil, "f.yaml:2: search.sims: -4 is out of range (1 to 1048576)"},
		{"bad float range", "search:\n  dirichlet_fraction: 1.5\n", nil, "f.yaml:2: search.dirichlet_fraction: 1.5 is out of range [0, 1]"},
		{"not allowed", "network:\n  kind: cnn\n", nil, `f.yaml:2: network.kind: "cnn" is not allowed (allowed: mlp, resmlp)`},
		{"bad preset", "rules: chess\n", nil, `f.yaml:1: rules: "chess" is not a preset (allowed: urim, urim7, urim4, oware)`},
		{"bad algorithm", "algorithm: dqn\n", nil, `f.yaml:1: algorithm: "dqn" is not allowed (allowed: alphazero, ppo`},
		{"bad ppo value", "algorithm: ppo\nppo:\n  pool:\n    sampling: newest\n", nil, `f.yaml:4: ppo.pool.sampling: "newest" is not allowed (allowed: uniform, recency)`},
		{"non-finite", "optimizer:\n  lr: .nan\n", nil, "f.yaml:2: optimizer.lr: .nan is not a finite number"},
		{"infinite", "optimizer:\n  weight_decay: .inf\n", nil, "f.yaml:2: optimizer.weight_decay: .inf is not a finite number"},
		{"bad agent", "evaluation:\n  opponents: [random, bogus]\n", nil, `f.yaml:2: evaluation.opponents[1]: agents: bad spec "bogus": unknown agent`},
		{"odd games", "evaluation:\n  games: 7\n", nil, "f.yaml:2: evaluation.games: 7 is odd"},
		{"two documents", "seed: 1\n---\nseed: 2\n", nil, "a second YAML document"},
		{"repeated key", "seed: 1\nseed: 2\n", nil, "f.yaml:2: seed: given twice (first at line 1)"},
		{"no stop", "stop:\n  iterations: 0\n", nil, "f.yaml:1: stop: no limit: set stop.iterations or stop.time"},
		{"bad duration", "stop:\n  time: 10 minutes\n", nil, `"10 minutes" is not a duration such as 90s, 10m or 1h30m`},
		{"bad resign", "selfplay:\n  resign:\n    threshold: 0.5\n", nil, "f.yaml:3: selfplay.resign.threshold: 0.5 is out of range (-1, 0)"},
		{"missing rules file", "rules_file: testdata/none.yaml\n", nil, "f.yaml:1: rules_file: env: rules testdata/none.yaml"},
		{"network too large", "network:\n  kind: resmlp\n  width: 4096\n  depth: 64\n", nil, "f.yaml:1: network: nn: resmlp 64x4096+ln is too large"},
		{"override unknown key", "", []string{"search.simz=3"}, "train: --set search.simz=3: unknown key (known: sims, c_puct,"},
		{"override bad type", "", []string{"search.sims=many"}, `train: --set search.sims=many: want an integer, got "many"`},
		{"override bad range", "", []string{"optimizer.batch_size=0"}, "train: --set optimizer.batch_size=0: 0 is out of range (1 to 65536)"},
		{"override not key=value", "", []string{"search.sims"}, "train: --set search.sims: want key=value"},
		{"override below a value", "", []string{"seed.x=1"}, "train: --set seed.x=1: seed has no keys below it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(c.yaml), "f.yaml", c.sets)
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Errorf("error %T is not a *ConfigError", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error\n  %v\nwant it to contain\n  %s", err, c.want)
			}
		})
	}
}

func TestConfigDefaultsAndOverrides(t *testing.T) {
	cfg, err := ParseConfig([]byte("search:\n  sims: 50\n"), "f.yaml",
		[]string{"search.sims=80", "evaluation.opponents=[random, 'mcts:sims=20']", "stop.time=90s", "network.layer_norm=false"})
	if err != nil {
		t.Fatal(err)
	}
	// search.sims is alphazero's (a section this package cannot name):
	// the override alone sets it.
	want, err := ParseConfig(nil, "", []string{"search.sims=80"})
	if err != nil {
		t.Fatal(err)
	}
	want.Evaluation.Opponents = []string{"random", "mcts:sims=20"}
	want.Stop.Time = Duration(90e9)
	want.Network.LayerNorm = false
	a, _ := cfg.Marshal()
	b, _ := want.Marshal()
	if string(a) != string(b) {
		t.Errorf("effective config\n%s\nwant\n%s", a, b)
	}
	// The printed config reads back to itself, and an empty file is the
	// default config.
	again, err := ParseConfig(a, "printed.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := again.Marshal(); string(c) != string(a) {
		t.Errorf("printed config does not read back to itself:\n%s", c)
	}
	empty, err := ParseConfig(nil, "empty.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := empty.Marshal(); string(c) != string(b[:0])+string(mustMarshal(t, Default())) {
		t.Errorf("empty config is not the default")
	}
}

func mustMarshal(t *testing.T, c Config) []byte {
	t.Helper()
	b, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDocsListEveryKey checks that docs/config.md documents every key path
// of the schema: the core's and the registered algorithms' sections (but
// the test algorithms').
func TestDocsListEveryKey(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "config.md"))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(rt reflect.Type, prefix string)
	walk = func(rt reflect.Type, prefix string) {
		for i := 0; i < rt.NumField(); i++ {
			f := rt.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if tag == "" || tag == "-" {
				continue
			}
			key := prefix + tag
			if s, ok := lookupSection(key); ok && prefix == "" && strings.HasPrefix(s.owner, "test-") {
				continue
			}
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type, key+".")
				continue
			}
			if !strings.Contains(string(doc), "| `"+key+"` |") {
				t.Errorf("docs/config.md has no row for %s", key)
			}
		}
	}
	for _, algo := range Algorithms() {
		walk(schemaType(algo), "")
	}
}
