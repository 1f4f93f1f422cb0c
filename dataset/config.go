package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// Config is a self-play run: `urim selfplay` flags, or its YAML form
// (`urim selfplay --config FILE`), one key per field.
type Config struct {
	// Agent is the spec of the agent that plays (mcts:sims=100, say).
	Agent string `yaml:"agent" json:"agent"`
	// Opponent is the spec of the agent it plays against; empty means the
	// agent plays itself. Game i puts Agent in seat i mod 2.
	Opponent string `yaml:"opponent" json:"opponent"`
	// Games is the number of games in the dataset (a resumed run plays
	// those missing).
	Games int `yaml:"games" json:"games"`
	// Out is the dataset directory.
	Out string `yaml:"out" json:"out"`
	// Encoding is the observation encoding: compact (default) or
	// thermometer.
	Encoding string `yaml:"encoding" json:"encoding"`
	// ShardSize is the number of positions at which a shard is cut; 0
	// means DefaultShardPositions.
	ShardSize int `yaml:"shard_size" json:"shard_size"`
	// Seed seeds every game: game i's opening and agents derive from Seed
	// and i alone.
	Seed uint64 `yaml:"seed" json:"seed"`
	// Workers is the number of games played at once; 0 means one per core.
	// It does not change the dataset.
	Workers int `yaml:"workers" json:"workers"`
	// Openings is the number of random plies every game starts with (they
	// get no tensor rows); 0 starts from the start position.
	Openings int `yaml:"openings" json:"openings"`
	// Rules is a preset name (urim by default) or a YAML rules file.
	Rules string `yaml:"rules" json:"rules"`
	// Reward is what the outcome array holds for the mover: match_points
	// (default), win_loss or seed_margin.
	Reward string `yaml:"reward" json:"reward"`
}

// maxSelfPlayOpenings bounds Config.Openings, as in the evaluator.
const maxSelfPlayOpenings = 40

// ConfigError is a bad value in a self-play config: "FILE:LINE: KEY:
// problem", with the parts that are known.
type ConfigError struct {
	File string
	Line int
	Key  string
	Err  error
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ConfigError) Unwrap() error { return e.Err }

func cfgErr(key, format string, args ...any) *ConfigError {
	return &ConfigError{Key: key, Err: fmt.Errorf(format, args...)}
}

// Validate fills in defaults (rules urim, compact encoding, match points)
// and reports the first bad value as a *ConfigError. Agent specs are checked
// by building them once.
func (c *Config) Validate() error {
	if c.Rules == "" {
		c.Rules = "urim"
	}
	if c.Encoding == "" {
		c.Encoding = env.EncodingCompact.String()
	}
	if c.Reward == "" {
		c.Reward = env.RewardMatchPoints.String()
	}
	if strings.TrimSpace(c.Agent) == "" {
		return cfgErr("agent", "no agent spec (known agents: %s)", strings.Join(agents.Names(), ", "))
	}
	if err := agents.Validate(c.Agent); err != nil {
		return &ConfigError{Key: "agent", Err: err}
	}
	if c.Opponent != "" {
		if err := agents.Validate(c.Opponent); err != nil {
			return &ConfigError{Key: "opponent", Err: err}
		}
	}
	if c.Games <= 0 {
		return cfgErr("games", "%d: want at least 1", c.Games)
	}
	if c.Out == "" {
		return cfgErr("out", "no output directory")
	}
	if _, err := env.ParseEncoding(c.Encoding); err != nil {
		return &ConfigError{Key: "encoding", Err: err}
	}
	if _, err := env.ParseRewardKind(c.Reward); err != nil {
		return &ConfigError{Key: "reward", Err: err}
	}
	if c.ShardSize < 0 {
		return cfgErr("shard_size", "%d is negative (0: %d positions)", c.ShardSize, DefaultShardPositions)
	}
	if c.Workers < 0 {
		return cfgErr("workers", "%d is negative (0: one per core)", c.Workers)
	}
	if c.Openings < 0 || c.Openings > maxSelfPlayOpenings {
		return cfgErr("openings", "%d is out of range (0 to %d)", c.Openings, maxSelfPlayOpenings)
	}
	if _, err := c.LoadRules(); err != nil {
		return &ConfigError{Key: "rules", Err: err}
	}
	return nil
}

// LoadRules returns the rules Config.Rules names: a preset, or a YAML file
// when it ends in .yaml or .yml.
func (c *Config) LoadRules() (env.Rules, error) {
	if strings.HasSuffix(c.Rules, ".yaml") || strings.HasSuffix(c.Rules, ".yml") {
		return env.LoadRules(c.Rules)
	}
	return env.PresetRules(c.Rules)
}

// configKeys lists the YAML keys of a Config.
func configKeys() []string {
	t := reflect.TypeFor[Config]()
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i] = t.Field(i).Tag.Get("yaml")
	}
	return keys
}

// LoadConfig reads a self-play config from a YAML file; see [ParseConfig].
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, &ConfigError{File: path, Err: err}
	}
	return ParseConfig(data, path)
}

// ParseConfig decodes a self-play config strictly: an unknown key, a key
// given twice or a value of the wrong type is an error naming the file, the
// line and the key. It does not validate; call [Config.Validate] after
// applying any overrides.
func ParseConfig(data []byte, file string) (Config, error) {
	var cfg Config
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return cfg, yamlErr(err, file)
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	if doc.Kind == 0 {
		return cfg, &ConfigError{File: file, Err: errors.New("the config is empty")}
	}
	if doc.Kind != yaml.MappingNode {
		return cfg, &ConfigError{File: file, Line: doc.Line, Err: errors.New("want a mapping of keys such as agent, games, out")}
	}
	known := configKeys()
	seen := map[string]int{}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		k := doc.Content[i]
		if !contains(known, k.Value) {
			return cfg, &ConfigError{File: file, Line: k.Line, Key: k.Value, Err: fmt.Errorf("unknown key (known: %s)", strings.Join(known, ", "))}
		}
		if l, dup := seen[k.Value]; dup {
			return cfg, &ConfigError{File: file, Line: k.Line, Key: k.Value, Err: fmt.Errorf("given twice (first on line %d)", l)}
		}
		seen[k.Value] = k.Line
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return cfg, yamlErr(err, file)
	}
	return cfg, nil
}

var yamlLine = regexp.MustCompile(`line (\d+): `)

// yamlErr turns a yaml.v3 error into a *ConfigError with the first line it
// names.
func yamlErr(err error, file string) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	msg = strings.TrimPrefix(msg, "unmarshal errors:\n  ")
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = strings.Replace(msg, m[0], "", 1)
	}
	return &ConfigError{File: file, Line: line, Err: errors.New(strings.TrimSpace(msg))}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
