package bench

import (
	"strings"

	"github.com/urim-rl/urim/env"
)

// Games compiles the rules named by a comma-separated list, as --rules
// takes it: presets, paths of rules YAML files ([env.FindRules]), or "all"
// for every preset.
func Games(list string) ([]*env.Game, error) {
	names := strings.Split(list, ",")
	if list == "all" {
		names = env.PresetNames()
	}
	var games []*env.Game
	for _, n := range names {
		r, err := env.FindRules(strings.TrimSpace(n))
		if err != nil {
			return nil, err
		}
		g, err := env.NewGame(r)
		if err != nil {
			return nil, err
		}
		games = append(games, g)
	}
	return games, nil
}
