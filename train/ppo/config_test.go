package ppo

import (
	"strings"
	"testing"

	"github.com/urim-rl/urim/train"
)

// The ppo section is ppo's own: its checks live here and their errors name
// the file, line and key like the core's.
func TestSectionChecks(t *testing.T) {
	for _, c := range []struct {
		yaml, want string
	}{
		{"algorithm: ppo\nppo:\n  pool:\n    sampling: newest\n", `c.yaml:4: ppo.pool.sampling: "newest" is not allowed (allowed: uniform, recency)`},
		{"algorithm: ppo\nppo:\n  games: 16384\n  steps: 65536\n", "c.yaml:4: ppo.steps: ppo.games × ppo.steps = 1073741824 moves per rollout is more than 16777216"},
		{"algorithm: ppo\nppo:\n  gamma: 1.5\n", "c.yaml:3: ppo.gamma: 1.5 is out of range [0, 1]"},
		{"algorithm: ppo\nmax_plies: 2\nppo:\n  opening_plies: 2\nevaluation:\n  opening_plies: 0\n", "c.yaml:4: ppo.opening_plies:"},
		{"algorithm: ppo\ncluster: {workers: 2}\n", "c.yaml:2: cluster: distributed self-play is"},
	} {
		_, err := train.ParseConfig([]byte(c.yaml), "c.yaml", nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %s", c.yaml, err, c.want)
		}
	}
	cfg, err := train.ParseConfig([]byte("algorithm: ppo\nppo:\n  epochs: 2\n"), "c.yaml", []string{"ppo.pool.share=0.5"})
	if err != nil {
		t.Fatal(err)
	}
	if p := Section.Of(&cfg); p.Epochs != 2 || p.Pool.Share != 0.5 || p.Games != DefaultConfig().Games {
		t.Errorf("section %+v: want epochs 2, pool share 0.5, the default games", p)
	}
}
