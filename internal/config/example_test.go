package config_test

import (
	"fmt"
	"strings"

	"github.com/urim-rl/urim/internal/config"
)

// trainConfig is how a training config uses the decoder: yaml tags name
// the keys, defaults are set before decoding, Validate reports by key.
type trainConfig struct {
	Iterations int     `yaml:"iterations"`
	LR         float64 `yaml:"lr"`
	Optimizer  struct {
		Beta1 float64 `yaml:"beta1"`
	} `yaml:"optimizer"`
}

func (c *trainConfig) Validate() error {
	if c.LR <= 0 {
		return config.Errorf("lr", "%g is not positive", c.LR)
	}
	return nil
}

// Decoding a file, reporting errors by file, line and key, and applying a
// --set override.
func Example() {
	cfg := trainConfig{Iterations: 100, LR: 1e-3}
	text := "iterations: 20\noptimizer:\n  beta1: 0.9\n"
	if err := config.Decode(strings.NewReader(text), "train.yaml", &cfg); err != nil {
		fmt.Println(err)
		return
	}
	if err := config.Set(&cfg, "optimizer.beta1=0.95"); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d iterations, lr %g, beta1 %g\n", cfg.Iterations, cfg.LR, cfg.Optimizer.Beta1)

	for _, bad := range []string{"iterations: 7.5\n", "lr: .nan\n", "optimiser: {}\n", "lr: -1\n"} {
		fmt.Println(config.Decode(strings.NewReader(bad), "train.yaml", &trainConfig{}))
	}
	fmt.Println(config.Set(&cfg, "optimizer.beta2=0.9"))
	// Output:
	// 20 iterations, lr 0.001, beta1 0.95
	// train.yaml:1: iterations: want an integer, got "7.5"
	// train.yaml:1: lr: .nan is not a finite number
	// train.yaml:1: optimiser: unknown key (known: iterations, lr, optimizer)
	// train.yaml:1: lr: -1 is not positive
	// optimizer.beta2: unknown key (known: beta1)
}
