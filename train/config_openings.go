package train

import "github.com/urim-rl/urim/env"

// checkOpenings checks that the random openings the run draws (self-play's
// or PPO's, and evaluation's when it runs) leave a ply before the rules'
// cap; game is nil when the rules are
// bad (checkRules reports that).
func (c *Config) checkOpenings(game *env.Game) error {
	if game == nil {
		return nil
	}
	ppo := c.Algorithm == "ppo"
	for _, o := range []struct {
		key   string
		plies int
		used  bool
	}{
		{"selfplay.opening_plies", c.SelfPlay.OpeningPlies, !ppo},
		{"evaluation.opening_plies", c.Evaluation.OpeningPlies, c.Evaluation.Every > 0},
		{"ppo.opening_plies", c.PPO.OpeningPlies, ppo},
	} {
		if err := game.CheckOpening(o.plies); o.used && err != nil {
			return &ConfigError{Key: o.key, Err: err}
		}
	}
	return nil
}
