package train_test

import (
	"fmt"

	"github.com/urim-rl/urim/train"
	"github.com/urim-rl/urim/train/alphazero"
)

// A config names only what it changes; every error names the file, the line
// and the key path. The search section is alphazero's (alphazero.SearchSection).
func ExampleParseConfig() {
	cfg, err := train.ParseConfig([]byte("rules: urim7\nsearch:\n  sims: 200\n"), "run.yaml", []string{"stop.iterations=50"})
	search := alphazero.SearchSection.Of(&cfg)
	fmt.Println(cfg.Rules, search.Sims, search.CPuct, cfg.Stop.Iterations, err)

	_, err = train.ParseConfig([]byte("search:\n  sims: 0\n"), "run.yaml", nil)
	fmt.Println(err)
	_, err = train.ParseConfig([]byte("search:\n  simz: 10\n"), "run.yaml", nil)
	fmt.Println(err)
	// Output:
	// urim7 200 1.5 50 <nil>
	// train: config run.yaml:2: search.sims: 0 is out of range (1 to 1048576)
	// train: config run.yaml:2: search.simz: unknown key (known: sims, c_puct, dirichlet_alpha, dirichlet_fraction, temperature, temperature_plies, final_temperature, leaf_batch, playout_cap, root_policy_temperature, forced_playouts, endgame_boost, root, gumbel, precision)
}
