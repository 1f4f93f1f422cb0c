package evaluate

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/urim-rl/urim/internal/config"
)

// ConfigError reports a bad value in a tournament config: its message is
// "FILE:LINE: KEY: problem", Key being the YAML key ("games", or
// "agents[2]" for one player). File and Line are set when the config was
// read from a file. It is the error type of the shared strict decoder.
type ConfigError = config.Error

// Validate fills in the defaults of zero fields (rules urim, round robin,
// DefaultGames) and reports the first bad value as a *ConfigError. It is a
// pure check: agent specs are checked with [agents.Validate], which builds
// no agent and starts no external engine, and a rules file is not read
// (RunTournament reads it).
func (c *Config) Validate() error {
	if c.Format == "" {
		c.Format = RoundRobin
	}
	if c.Games == 0 {
		c.Games = DefaultGames
	}
	if err := c.Setup.validate(); err != nil {
		return err
	}
	g, err := c.Setup.Game()
	if err != nil {
		return err
	}
	if c.Format != RoundRobin && c.Format != Gauntlet {
		return config.Errorf("format", "%q is not %s or %s", c.Format, RoundRobin, Gauntlet)
	}
	if len(c.Agents) < 2 {
		return config.Errorf("agents", "%d listed, a tournament needs at least 2", len(c.Agents))
	}
	if err := checkAgents(len(c.Agents), c.Format, c.Games); err != nil {
		return err
	}
	names := map[string]int{}
	for i, p := range c.Agents {
		key := fmt.Sprintf("agents[%d]", i)
		if err := p.check(g); err != nil {
			return &ConfigError{Key: key, Err: err}
		}
		if k, dup := names[p.Label()]; dup {
			return config.Errorf(key, "%q is already agents[%d]; give the two players different names (name: ..., spec: ...)", p.Label(), k)
		}
		names[p.Label()] = i
	}
	if c.Games < 0 {
		return config.Errorf("games", "%d is negative", c.Games)
	}
	if c.Paired && c.Games%2 != 0 {
		return config.Errorf("games", "%d is odd: paired openings play each opening twice (or set paired: false)", c.Games)
	}
	if c.Anchor != "" {
		found := false
		for _, p := range c.Agents {
			if p.Label() == c.Anchor || (p.Name == "" && CanonicalSpec(p.Spec) == CanonicalSpec(c.Anchor)) {
				found = true
			}
		}
		if !found {
			return config.Errorf("anchor", "%q is not one of the agents", c.Anchor)
		}
	}
	return nil
}

// UnmarshalYAML reads a player written either as a spec string
// ("mcts:sims=200") or as a mapping with name and spec.
func (p *Player) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		p.Name, p.Spec = "", strings.TrimSpace(n.Value)
		return nil
	}
	type plain Player
	var q plain
	if err := n.Decode(&q); err != nil {
		return err
	}
	*p = Player(q)
	return nil
}

// LoadConfig reads a tournament config from a YAML file; see [ParseConfig].
func LoadConfig(path string) (Config, error) {
	cfg := fileConfig(DefaultConfig())
	if err := config.DecodeFile(path, &cfg); err != nil {
		return Config(cfg), fmt.Errorf("evaluate: config %w", err)
	}
	return Config(cfg), nil
}

// ParseConfig reads a tournament config from YAML with the strict decoder
// of internal/config (unknown or repeated keys, a fraction for an integer,
// a non-finite number, a second document are errors), starting from
// [DefaultConfig] so an absent key means what the urim eval flag means by
// default, then validates it ([Config.Validate]). Every error names the
// file, the line and the key.
func ParseConfig(data []byte, file string) (Config, error) {
	cfg := fileConfig(DefaultConfig())
	if err := config.DecodeBytes(data, file, &cfg); err != nil {
		return Config(cfg), fmt.Errorf("evaluate: config %w", err)
	}
	return Config(cfg), nil
}

// fileConfig is a Config read from YAML. An absent key keeps its default,
// so a written zero is the user's own value: "games: 0" is refused as
// --games 0 is, rather than meaning DefaultGames as the zero of a Config
// built in Go does.
type fileConfig Config

// Validate refuses a written games of 0, then validates as Config.
func (c *fileConfig) Validate() error {
	if c.Games == 0 {
		return config.Errorf("games", "0 games: give at least 1 (leave the key out for %d)", DefaultGames)
	}
	return (*Config)(c).Validate()
}
