package dataset

import (
	"errors"
	"strings"
	"testing"

	"github.com/urim-rl/urim/internal/config"
)

func TestParseConfig(t *testing.T) {
	good := "agent: mcts:sims=100\nopponent: greedy\ngames: 10\nout: d\nencoding: thermometer\nshard_size: 500\nseed: 7\nworkers: 1\nopenings: 2\nrules: urim7\nreward: win_loss\n"
	cfg, err := ParseConfig([]byte(good), "sp.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Agent: "mcts:sims=100", Opponent: "greedy", Games: 10, Out: "d", Encoding: "thermometer", ShardSize: 500,
		Seed: 7, Workers: 1, Openings: 2, Rules: "urim7", Reward: "win_loss"}
	if cfg != want {
		t.Fatalf("ParseConfig = %+v, want %+v", cfg, want)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"agent: random\ngame: 10\n", `sp.yaml:2: game: unknown key (known: agent, opponent, games`},
		{"agent: random\ngames: ten\n", `sp.yaml:2: games: `},
		{"agent: random\nagent: greedy\n", `sp.yaml:2: agent: given twice`},
		{"- agent\n", `sp.yaml:1: `},
		{"", `sp.yaml: the document is empty`},
	} {
		_, err := ParseConfig([]byte(tc.yaml), "sp.yaml")
		var ce *config.Error
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseConfig(%q) = %v, want a *config.Error containing %q", tc.yaml, err, tc.want)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	base := Config{Agent: "random", Games: 4, Out: "d"}
	for _, tc := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Agent = "" }, "agent: no agent spec"},
		{func(c *Config) { c.Agent = "mcts:sim=5" }, "agent: "},
		{func(c *Config) { c.Opponent = "nobody" }, "opponent: "},
		{func(c *Config) { c.Games = 0 }, "games: 0: want at least 1"},
		{func(c *Config) { c.Out = "" }, "out: no output directory"},
		{func(c *Config) { c.Encoding = "onehot" }, "encoding: "},
		{func(c *Config) { c.Reward = "elo" }, "reward: "},
		{func(c *Config) { c.ShardSize = -1 }, "shard_size: -1 is out of range (0 to 16777216"},
		{func(c *Config) { c.Openings = 99 }, "openings: 99 is out of range"},
		{func(c *Config) { c.Rules = "chess" }, "rules: "},
	} {
		c := base
		tc.edit(&c)
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v) = %v, want %q", c, err, tc.want)
		}
	}
}
