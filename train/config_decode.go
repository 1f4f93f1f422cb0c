package train

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/urim-rl/urim/internal/config"
)

// ConfigError reports a bad training config: the file and line (or the
// --set override) and the key path ("search.sims", "evaluation.opponents[1]")
// of the problem. It is internal/config's error type, shared by every
// config; [ParseConfig] and [LoadConfig] open its message with "train:
// config" (see trainError).
type ConfigError = config.Error

// trainError opens a config error's message as train's read: "train: config
// FILE:LINE: KEY: problem", "train: --set KEY=VALUE: problem" or "train:
// config: KEY: problem". The *ConfigError stays reachable with errors.As.
func trainError(err error) error {
	var ce *ConfigError
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &ce):
		return fmt.Errorf("train: config: %w", err)
	case ce.Set != "":
		return fmt.Errorf("train: %w", err)
	case ce.File != "" || ce.Line > 0:
		return fmt.Errorf("train: config %w", err)
	}
	return fmt.Errorf("train: config: %w", err)
}

// LoadConfig reads a training config file, applies the overrides (each
// "key.path=value", the value in YAML syntax) and validates the result; see
// [ParseConfig].
func LoadConfig(path string, sets []string) (Config, error) {
	data, err := config.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("train: config: %w", err)
	}
	return ParseConfig(data, path, sets)
}

// ParseConfig decodes a training config strictly, through the project's one
// YAML decoder (internal/config): every key not in the schema, a value of the
// wrong type (a fraction for an integer included), a non-finite number, a
// second YAML document and a key given twice are errors naming the file,
// line and key path. Then the overrides are applied with the same checks and
// [Config.Validate] checks every value. Keys the file omits keep their
// [Default]; an empty file is the default config.
func ParseConfig(data []byte, file string, sets []string) (Config, error) {
	cfg, err := parseConfig(data, file, sets)
	return cfg, trainError(err)
}

func parseConfig(data []byte, file string, sets []string) (Config, error) {
	return decodeConfig(data, file, sets, false)
}

// decodeConfig is [ParseConfig]; dropForeign drops the sections of other
// algorithms than the config's instead of refusing them (what a run's
// config.yaml written before one schema per algorithm holds).
func decodeConfig(data []byte, file string, sets []string, dropForeign bool) (Config, error) {
	cfg := Default()
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if len(bytes.TrimSpace(data)) > 0 {
		doc, parseErr := parseDocument(data, file)
		switch {
		case parseErr == nil && doc.Kind == yaml.MappingNode:
			root = doc
		default:
			// Not a mapping: the strict decoder says why, by line.
			if err := config.DecodeBytes(data, file, cfg.schemaValue().Interface()); err != nil {
				return cfg, err
			}
			if parseErr != nil {
				return cfg, parseErr
			}
		}
	}
	// The schema is the config's own algorithm's: read the algorithm first
	// (the file's, then an override's), so another's section can be named.
	algoLine := 0
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k, v := root.Content[i], root.Content[i+1]; k.Value == "algorithm" && v.Kind == yaml.ScalarNode {
			cfg.Algorithm, algoLine = v.Value, k.Line
		}
	}
	for _, set := range sets {
		if path, value, ok := strings.Cut(set, "="); ok && strings.TrimSpace(path) == "algorithm" {
			var name string
			if yaml.Unmarshal([]byte(value), &name) == nil && name != "" {
				cfg.Algorithm, algoLine = name, 0
			}
		}
	}
	if err := checkAlgorithm(cfg.Algorithm); err != nil {
		ce := &ConfigError{File: file, Line: algoLine, Key: "algorithm", Err: err}
		var bad *ConfigError
		if errors.As(err, &bad) {
			ce.Err = bad.Err
		}
		return cfg, ce
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		owner := foreignSection(k.Value, cfg.Algorithm)
		if owner == "" {
			continue
		}
		if !dropForeign {
			return cfg, &ConfigError{File: file, Line: k.Line, Key: k.Value,
				Err: fmt.Errorf("a section of algorithm %s, but this config's algorithm is %s: remove it or set algorithm: %s", owner, cfg.Algorithm, owner)}
		}
		root.Content = slices.Delete(root.Content, i, i+2)
		i -= 2
	}
	if dropForeign && len(root.Content) > 0 {
		var err error
		if data, err = yaml.Marshal(root); err != nil {
			return cfg, &ConfigError{File: file, Err: err}
		}
	}
	// The schema value (core and sections) has no Validate method:
	// validation waits for the overrides.
	sv := cfg.schemaValue()
	if len(root.Content) > 0 {
		if err := config.DecodeBytes(data, file, sv.Interface()); err != nil {
			return fromSchema(sv, cfg), err
		}
	}
	overrides := map[string]string{} // key path → the --set text
	for _, set := range sets {
		path, _, ok := strings.Cut(set, "=")
		if !ok || strings.TrimSpace(path) == "" {
			return cfg, &ConfigError{Set: set, Err: errors.New("want key=value, such as search.sims=200")}
		}
		top, _, _ := strings.Cut(strings.TrimSpace(path), ".")
		if owner := foreignSection(top, cfg.Algorithm); owner != "" {
			return cfg, &ConfigError{Set: set, Key: top,
				Err: fmt.Errorf("a section of algorithm %s, but this config's algorithm is %s", owner, cfg.Algorithm)}
		}
		if err := config.Set(sv.Interface(), set); err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) {
				return cfg, &ConfigError{Set: set, Err: err}
			}
			ce.Set = set
			return cfg, err
		}
		overrides[strings.TrimSpace(path)] = set
	}
	cfg = fromSchema(sv, cfg)
	if err := cfg.Validate(); err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			if set, ok := overrideFor(overrides, ce.Key); ok {
				ce.Set = set
			} else {
				ce.File = file
				line, found := config.KeyLine(root, ce.Key)
				if found || len(sets) == 0 {
					ce.Line = line
				}
				if len(sets) > 0 {
					// The value may be the file's or the default, but the
					// overrides made it wrong: say so, and cite a line only
					// when the key is on it.
					ce.Err = fmt.Errorf("%w (with --set %s)", ce.Err, strings.Join(sets, ", --set "))
				}
			}
		}
		return cfg, err
	}
	return cfg, nil
}

// parseDocument returns the top mapping of a document internal/config
// has already accepted, for finding the lines of keys.
func parseDocument(data []byte, file string) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &ConfigError{File: file, Err: err}
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		return doc.Content[0], nil
	}
	return &doc, nil
}

// overrideFor returns the --set text that set key or one of its parents.
func overrideFor(overrides map[string]string, key string) (string, bool) {
	for k := key; k != ""; {
		if s, ok := overrides[k]; ok {
			return s, true
		}
		i := strings.LastIndexAny(k, ".[")
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return "", false
}

// sortedKeys returns the YAML keys of struct type t in alphabetical order.
func sortedKeys(t reflect.Type) []string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if f.IsExported() && tag != "" && tag != "-" {
			names = append(names, tag)
		}
	}
	sort.Strings(names)
	return names
}

// Marshal writes c as YAML with every key, in schema order: the effective
// config `urim config print` shows and a run stores.
func (c Config) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(c.schemaValue().Interface()); err != nil {
		return nil, fmt.Errorf("train: config: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("train: config: %w", err)
	}
	return b.Bytes(), nil
}

// LoadRunConfig reads the config.yaml of the run directory dir, as
// `urim train --resume DIR` does, and applies the overrides. A config.yaml
// stored before each algorithm had a schema of its own holds every
// algorithm's sections: those of other algorithms are dropped, not refused.
func LoadRunConfig(dir string, sets []string) (Config, error) {
	path := filepath.Join(dir, configFile)
	data, err := config.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("train: config: %w", err)
	}
	cfg, err := decodeConfig(data, path, sets, true)
	return cfg, trainError(err)
}
