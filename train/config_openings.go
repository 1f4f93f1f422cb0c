package train

import "github.com/urim-rl/urim/env"

// checkEvalOpenings checks that evaluation's random openings, when it runs,
// leave a ply before the rules' cap; game is nil when the rules are bad
// (checkRules reports that). The algorithms check their own openings
// (alphazero's selfplay.opening_plies, ppo's ppo.opening_plies).
func (c *Config) checkEvalOpenings(game *env.Game) error {
	return CheckOpening("evaluation.opening_plies", c.Evaluation.OpeningPlies, game, c.Evaluation.Every > 0)
}

// CheckOpening reports an opening of plies random plies, the value of key,
// that leaves no ply before the rules' cap, when the run uses it; game is
// nil when the rules are bad (reported already).
func CheckOpening(key string, plies int, game *env.Game, used bool) error {
	if game == nil || !used {
		return nil
	}
	if err := game.CheckOpening(plies); err != nil {
		return &ConfigError{Key: key, Err: err}
	}
	return nil
}
