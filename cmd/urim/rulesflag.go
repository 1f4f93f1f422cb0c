package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/urim-rl/urim/env"
)

// rulesFlag binds --rules, which names a preset or a rules file.
func rulesFlag(fs *flag.FlagSet) *string {
	return fs.String("rules", "urim", rulesUsage)
}

// rulesUsage is the help of every --rules flag.
var rulesUsage = "rules: a preset (" + strings.Join(env.PresetNames(), ", ") + ") or a YAML file of custom rules"

// loadGame compiles the rules named by a --rules flag: a preset name, or a
// path to a YAML file (see docs/rules.md).
func loadGame(name string) (*env.Game, error) {
	r, err := env.FindRules(name)
	if errors.Is(err, env.ErrUnknownPreset) {
		return nil, usageErrorf("--rules: %v", err)
	}
	if err != nil {
		return nil, err
	}
	return env.NewGame(r)
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
