package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/urim-rl/urim/env"
)

// rulesFlag binds --rules, which names a preset.
func rulesFlag(fs *flag.FlagSet) *string {
	return fs.String("rules", "urim", "rules preset: "+strings.Join(env.PresetNames(), ", "))
}

// loadGame compiles the preset named by a --rules flag.
func loadGame(name string) (*env.Game, error) {
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
