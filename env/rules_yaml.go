package env

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/urim-rl/urim/internal/config"
)

// rulesFile is the YAML form of custom rules: an optional preset to start
// from, then any Rules fields to override.
type rulesFile struct {
	Preset string `yaml:"preset"`
	R      Rules  `yaml:",inline"`
	// overrides reports whether the document sets any field besides preset
	// and name.
	overrides bool
}

// UnmarshalYAML loads the preset first, so the document's fields override
// it.
func (f *rulesFile) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			switch k, v := n.Content[i], n.Content[i+1]; k.Value {
			case "preset":
				base, err := PresetRules(v.Value)
				if err != nil {
					return &config.Error{Line: v.Line, Key: "preset", Err: err}
				}
				f.R = base
			case "name":
			default:
				f.overrides = true
			}
		}
	}
	type plain rulesFile
	return n.Decode((*plain)(f))
}

// Validate checks the rules, naming the offending key.
func (f *rulesFile) Validate() error {
	err := f.R.Validate()
	var re *RulesError
	if errors.As(err, &re) {
		return &config.Error{Key: re.Field, Err: err}
	}
	return err
}

// DecodeRules reads rules from YAML. The document may name a preset to start
// from and override some fields:
//
//	preset: urim
//	capacity: 0
//	max_plies: 400
//
// or give every field. The document is read by the strict decoder of
// internal/config: unknown keys, a fractional number for an integer field, a
// second document are errors naming source, the line and the key, and the
// result goes through [Rules.Validate]. Rules that change anything of their
// preset are named after source unless the document has a name key, so
// printed commands (urim replay --rules FILE) reproduce their games.
func DecodeRules(r io.Reader, source string) (Rules, error) {
	var f rulesFile
	if err := config.Decode(r, source, &f); err != nil {
		return Rules{}, fmt.Errorf("env: rules %w", err)
	}
	if f.R.Name == "" || (f.overrides && f.R.Name == f.Preset) {
		f.R.Name = source
	}
	return f.R, nil
}

// LoadRules reads rules from a YAML file (see [DecodeRules]).
func LoadRules(path string) (Rules, error) {
	var f rulesFile
	if err := config.DecodeFile(path, &f); err != nil {
		return Rules{}, fmt.Errorf("env: rules %w", err)
	}
	if f.R.Name == "" || (f.overrides && f.R.Name == f.Preset) {
		f.R.Name = path
	}
	return f.R, nil
}

// IsRulesFile reports whether a rules argument names a YAML file (it ends
// in .yaml or .yml) rather than a preset.
func IsRulesFile(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// FindRules returns the rules a command-line or config argument names: a
// preset ("urim", "oware", …) or the path of a YAML file of custom rules
// ([LoadRules]). Every command takes its --rules this way.
func FindRules(nameOrFile string) (Rules, error) {
	if IsRulesFile(nameOrFile) {
		return LoadRules(nameOrFile)
	}
	return PresetRules(nameOrFile)
}
