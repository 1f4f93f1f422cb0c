package train_test

import (
	"fmt"

	"github.com/urim-rl/urim/train"
)

// A config names only what it changes; every error names the file, the line
// and the key path.
func ExampleParseConfig() {
	cfg, err := train.ParseConfig([]byte("rules: urim7\nsearch:\n  sims: 200\n"), "run.yaml", []string{"stop.iterations=50"})
	fmt.Println(cfg.Rules, cfg.Search.Sims, cfg.Search.CPuct, cfg.Stop.Iterations, err)

	_, err = train.ParseConfig([]byte("search:\n  sims: 0\n"), "run.yaml", nil)
	fmt.Println(err)
	_, err = train.ParseConfig([]byte("serach:\n  sims: 10\n"), "run.yaml", nil)
	fmt.Println(err)
	// Output:
	// urim7 200 1.5 50 <nil>
	// train: config run.yaml:2: search.sims: 0 is out of range (1 to 1048576)
	// train: config run.yaml:1: serach: unknown key (known: algorithm, rules, rules_file, max_plies, reward, encoding, network, search, selfplay, replay, training, optimizer, evaluation, stop, checkpoints, dataset, ppo, cluster, output, seed, workers)
}
