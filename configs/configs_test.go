package configs_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/train"
	_ "github.com/urim-rl/urim/train/all" // the algorithms the training configs name

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)

// notConfigs are the files of this folder that hold no config.
var notConfigs = map[string]bool{"README.md": true, "configs.go": true, "configs_test.go": true}

// TestEveryConfigLoads walks configs/ and loads and validates every file with
// the loader of its kind: rules/*.yaml as rules files (env.LoadRules),
// bench-*.yaml as tournament configs (evaluate.LoadConfig), every other
// *.yaml as a training config (train.LoadConfig, AlphaZero or PPO). A file of
// no kind fails the test, so a new config cannot be left unchecked.
func TestEveryConfigLoads(t *testing.T) {
	// Paths inside the configs (checkpoints, rules files) are relative to
	// the repository's root, where the README runs them.
	t.Chdir("..")
	kinds := map[string]int{}
	err := filepath.WalkDir("configs", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(filepath.ToSlash(path), "configs/")
		if notConfigs[rel] {
			return nil
		}
		var kind string
		var lerr error
		switch {
		case matches("rules/*.yaml", rel):
			kind = "rules"
			_, lerr = env.LoadRules(path)
		case matches("bench-*.yaml", rel):
			kind = "tournament"
			var cfg evaluate.Config
			if cfg, lerr = evaluate.LoadConfig(path); lerr == nil && len(cfg.Pairings()) == 0 {
				t.Errorf("%s: a tournament without pairings", path)
			}
		case matches("*.yaml", rel):
			kind = "training"
			var cfg train.Config
			if cfg, lerr = train.LoadConfig(path, nil); lerr == nil && cfg.Algorithm != "alphazero" && cfg.Algorithm != "ppo" {
				t.Errorf("%s: algorithm %q", path, cfg.Algorithm)
			}
		default:
			t.Errorf("%s: not a config of a known kind (rules/*.yaml, bench-*.yaml, *.yaml) nor listed in notConfigs", path)
			return nil
		}
		kinds[kind]++
		if lerr != nil {
			t.Errorf("%s (%s): %v", path, kind, lerr)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// At least the files that exist today: a glob that finds nothing
	// would pass vacuously.
	for kind, least := range map[string]int{"rules": 1, "tournament": 3, "training": 8} {
		if kinds[kind] < least {
			t.Errorf("%d %s files found, want at least %d", kinds[kind], kind, least)
		}
	}
	if _, err := os.Stat("configs/quickstart.yaml"); err != nil {
		t.Error(err)
	}
}

func matches(pattern, name string) bool {
	ok, err := filepath.Match(pattern, name)
	return err == nil && ok
}
