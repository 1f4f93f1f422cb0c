package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/urim-rl/urim/env"
)

// rulesFlag binds --rules, which names a preset.
func rulesFlag(fs *flag.FlagSet) *string {
	return fs.String("rules", "urim", "rules: a preset ("+strings.Join(env.PresetNames(), ", ")+") or a YAML file of custom rules")
}

// loadGame compiles the rules named by a --rules flag: a preset name, or a
// path to a YAML file (see docs/rules.md).
func loadGame(name string) (*env.Game, error) {
	if isRulesFile(name) {
		r, err := env.LoadRules(name)
		if err != nil {
			return nil, err
		}
		return env.NewGame(r)
	}
	g, err := env.Preset(name)
	if err != nil {
		return nil, usageErrorf("--rules: %v", err)
	}
	return g, nil
}

// startPosition returns the start of g, or the position given in notation.
func startPosition(g *env.Game, position string) (env.State, error) {
	if position == "" {
		return g.Start(), nil
	}
	s, err := g.ParsePosition(position)
	if err != nil {
		return s, fmt.Errorf("--position: %w", err)
	}
	return s, nil
}

// isRulesFile reports whether a --rules value names a YAML file rather than
// a preset.
func isRulesFile(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}
