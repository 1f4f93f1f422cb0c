package evaluate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// ConfigError reports a bad value in a tournament config. Key is the YAML key
// ("games", or "agents[2]" for one player); File and Line are set when the
// config was read from a file.
type ConfigError struct {
	File string
	Line int
	Key  string
	Err  error
}

// Error returns "evaluate: config FILE:LINE: KEY: problem".
func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString("evaluate: config ")
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s: %v", e.Key, e.Err)
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ConfigError) Unwrap() error { return e.Err }

func configErr(key, format string, args ...any) error {
	return &ConfigError{Key: key, Err: fmt.Errorf(format, args...)}
}

// maxOpeningPlies bounds Config.OpeningPlies: longer random openings leave
// little of a game to measure.
const maxOpeningPlies = 40

// Validate fills in the defaults of zero fields (rules urim, round robin,
// DefaultGames) and reports the first bad value as a *ConfigError. Every
// agent spec is checked by building it once.
func (c *Config) Validate() error {
	if c.Rules == "" {
		c.Rules = "urim"
	}
	if c.Format == "" {
		c.Format = RoundRobin
	}
	if c.Games == 0 {
		c.Games = DefaultGames
	}
	if _, err := env.PresetRules(c.Rules); err != nil {
		return &ConfigError{Key: "rules", Err: err}
	}
	if c.MaxPlies < 0 {
		return configErr("max_plies", "%d is negative (0 keeps the preset's cap)", c.MaxPlies)
	}
	if c.Format != RoundRobin && c.Format != Gauntlet {
		return configErr("format", "%q is not %s or %s", c.Format, RoundRobin, Gauntlet)
	}
	if len(c.Agents) < 2 {
		return configErr("agents", "%d listed, a tournament needs at least 2", len(c.Agents))
	}
	names := map[string]int{}
	for i, p := range c.Agents {
		key := fmt.Sprintf("agents[%d]", i)
		if strings.TrimSpace(p.Spec) == "" {
			return configErr(key, "no agent spec (known agents: %s)", strings.Join(agents.Names(), ", "))
		}
		if err := agents.Validate(p.Spec); err != nil {
			return &ConfigError{Key: key, Err: err}
		}
		if k, dup := names[p.Label()]; dup {
			return configErr(key, "%q is already agents[%d]; give the two players different names (name: ..., spec: ...)", p.Label(), k)
		}
		names[p.Label()] = i
	}
	if c.Games < 0 {
		return configErr("games", "%d is negative", c.Games)
	}
	if c.Paired && c.Games%2 != 0 {
		return configErr("games", "%d is odd: paired openings play each opening twice", c.Games)
	}
	if c.OpeningPlies < 0 || c.OpeningPlies > maxOpeningPlies {
		return configErr("opening_plies", "%d is out of range (0 to %d)", c.OpeningPlies, maxOpeningPlies)
	}
	if c.Workers < 0 {
		return configErr("workers", "%d is negative (0 means one per core)", c.Workers)
	}
	if c.Anchor != "" {
		found := false
		for _, p := range c.Agents {
			if p.Label() == c.Anchor || (p.Name == "" && CanonicalSpec(p.Spec) == CanonicalSpec(c.Anchor)) {
				found = true
			}
		}
		if !found {
			return configErr("anchor", "%q is not one of the agents", c.Anchor)
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
	// Unknown keys in the mapping are reported by checkKeys, with their line.
	if err := n.Decode(&q); err != nil {
		return err
	}
	*p = Player(q)
	return nil
}

// LoadConfig reads a tournament config from a YAML file; see [ParseConfig].
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("evaluate: config: %w", err)
	}
	return ParseConfig(data, path)
}

// ParseConfig reads a tournament config from YAML, rejecting unknown keys
// and keys given twice, then validates it ([Config.Validate]). Every error
// names the file, the line and the key.
func ParseConfig(data []byte, file string) (Config, error) {
	var cfg Config
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return cfg, yamlError(err, file, nil)
	}
	if err := checkKeys(&root, file); err != nil {
		return cfg, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return cfg, yamlError(err, file, &root)
	}
	if err := cfg.Validate(); err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			ce.File = file
			ce.Line = keyLine(&root, ce.Key)
		}
		return cfg, err
	}
	return cfg, nil
}

// configKeys are the keys a config may have, and playerKeys those of one
// player written as a mapping.
var (
	configKeys = []string{"rules", "max_plies", "format", "agents", "games", "opening_plies", "paired", "seed",
		"workers", "anchor", "anchor_elo", "prior_draws", "store", "output"}
	playerKeys = []string{"name", "spec"}
)

// checkKeys reports an unknown top-level or player key with its line and the
// keys that are accepted (KataGo's typo check).
func checkKeys(root *yaml.Node, file string) error {
	doc := root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	if doc.Kind == 0 {
		return &ConfigError{File: file, Key: "agents", Err: errors.New("the config is empty")}
	}
	if doc.Kind != yaml.MappingNode {
		return &ConfigError{File: file, Line: doc.Line, Key: "(top level)", Err: errors.New("want a mapping of keys such as rules, agents, games")}
	}
	check := func(m *yaml.Node, known []string, prefix string) error {
		for i := 0; i+1 < len(m.Content); i += 2 {
			k := m.Content[i]
			if !contains(known, k.Value) {
				return &ConfigError{File: file, Line: k.Line, Key: prefix + k.Value,
					Err: fmt.Errorf("unknown key (known: %s)", strings.Join(known, ", "))}
			}
		}
		return nil
	}
	if err := check(doc, configKeys, ""); err != nil {
		return err
	}
	if a := mapValue(doc, "agents"); a != nil && a.Kind == yaml.SequenceNode {
		for i, item := range a.Content {
			if item.Kind == yaml.MappingNode {
				if err := check(item, playerKeys, fmt.Sprintf("agents[%d].", i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// keyLine finds the line of a key such as "games" or "agents[2]" in the
// parsed document, or 0.
func keyLine(root *yaml.Node, key string) int {
	doc := root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	if doc.Kind != yaml.MappingNode {
		return 0
	}
	name, index, hasIndex := strings.Cut(key, "[")
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value != name {
			continue
		}
		v := doc.Content[i+1]
		if hasIndex {
			k, err := strconv.Atoi(strings.TrimSuffix(index, "]"))
			if err == nil && v.Kind == yaml.SequenceNode && k < len(v.Content) {
				return v.Content[k].Line
			}
		}
		return v.Line
	}
	return 0
}

var yamlLine = regexp.MustCompile(`line (\d+): (.*)`)

// yamlError rewrites a yaml.v3 error as "file:line: key: message", finding
// the key on that line in root when there is one.
func yamlError(err error, file string, root *yaml.Node) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	m := yamlLine.FindStringSubmatch(msg)
	if m == nil {
		return fmt.Errorf("evaluate: config %s: %s", file, msg)
	}
	line, _ := strconv.Atoi(m[1])
	if key := lineKey(root, line, ""); key != "" {
		return fmt.Errorf("evaluate: config %s:%d: %s: %s", file, line, key, m[2])
	}
	return fmt.Errorf("evaluate: config %s:%d: %s", file, line, m[2])
}

// lineKey returns the path of the key whose value is on line ("games",
// "agents[1].spec"), or "".
func lineKey(n *yaml.Node, line int, prefix string) string {
	if n == nil {
		return ""
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if k := lineKey(c, line, prefix); k != "" {
				return k
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			if prefix != "" {
				key = prefix + "." + key
			}
			if v := n.Content[i+1]; v.Line == line && v.Kind == yaml.ScalarNode {
				return key
			}
			if k := lineKey(n.Content[i+1], line, key); k != "" {
				return k
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			key := fmt.Sprintf("%s[%d]", prefix, i)
			if c.Line == line && c.Kind == yaml.ScalarNode {
				return key
			}
			if k := lineKey(c, line, key); k != "" {
				return k
			}
		}
	}
	return ""
}
