package ppo

import (
	"github.com/urim-rl/urim/nn"
)

// ppoLoss returns PPO's loss, which nn declares and computes (nn.PPOLoss), with
// the coefficients of the config.
func ppoLoss(p Config) nn.PPOLoss {
	return nn.PPOLoss{Clip: p.Clip, ValueClip: p.ValueClip, EntropyCoef: p.EntropyCoef, ValueCoef: p.ValueCoef}
}
