package env

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"gopkg.in/yaml.v3"
)

// rulesFile is the YAML form of custom rules: an optional preset to start
// from, then any Rules fields to override.
type rulesFile struct {
	Preset string `yaml:"preset"`
	Rules  `yaml:",inline"`
}

// DecodeRules reads rules from YAML. The document may name a preset to start
// from and override some fields:
//
//	preset: urim
//	capacity: 0
//	max_plies: 400
//
// or give every field. Unknown keys are errors (a typo would otherwise be
// silently ignored), and the result goes through [Rules.Validate]. source
// names the input in error messages.
func DecodeRules(r io.Reader, source string) (Rules, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return Rules{}, fmt.Errorf("env: reading rules from %s: %w", source, err)
	}
	// Read the preset first, so the document's fields override it.
	var head struct {
		Preset string `yaml:"preset"`
	}
	if err := yaml.Unmarshal(data, &head); err != nil {
		return Rules{}, fmt.Errorf("env: rules in %s: %w", source, err)
	}
	var f rulesFile
	if head.Preset != "" {
		base, err := PresetRules(head.Preset)
		if err != nil {
			return Rules{}, fmt.Errorf("env: rules in %s: preset: %w", source, err)
		}
		f.Rules = base
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil && !errors.Is(err, io.EOF) {
		return Rules{}, fmt.Errorf("env: rules in %s: %w", source, err)
	}
	if f.Name == "" {
		f.Name = source
	}
	if err := f.Rules.Validate(); err != nil {
		return Rules{}, fmt.Errorf("%s: %w", source, err)
	}
	return f.Rules, nil
}

// LoadRules reads rules from a YAML file (see [DecodeRules]).
func LoadRules(path string) (Rules, error) {
	fh, err := os.Open(path)
	if err != nil {
		return Rules{}, fmt.Errorf("env: %w", err)
	}
	defer fh.Close()
	return DecodeRules(fh, path)
}
