package ppo

import (
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/train"
)

// Section is ppo's config section, ppo ([Config]), printed after dataset:
// read a config's with Section.Of, replace it with Section.Set.
var Section = train.NewSection("ppo", "dataset", DefaultConfig, checkConfig)

// Config is the ppo section of a training config: proximal policy optimization
// in self-play on the vectorized environment (algorithm: ppo; docs/ppo.md).
// The optimizer section's lr, schedule, lr_min, warmup_steps, weight_decay
// and grad_clip apply to it; optimizer.batch_size, value_weight and
// samples_per_position and the search, selfplay and replay sections are
// alphazero's only.
type Config struct {
	// Games is the number of games the env.Vec plays at once (N); the
	// policy plays both seats of each.
	Games int `yaml:"games"`
	// Steps is the rollout length of an iteration (T): an iteration
	// collects Games × Steps moves.
	Steps int `yaml:"steps"`
	// Epochs is the number of passes over a rollout; Minibatch the moves
	// per gradient step.
	Epochs    int `yaml:"epochs"`
	Minibatch int `yaml:"minibatch"`
	// Gamma discounts from one of a player's decisions to its next;
	// Lambda is GAE's λ.
	Gamma  float64 `yaml:"gamma"`
	Lambda float64 `yaml:"lambda"`
	// Clip is the surrogate's ratio clip ε; ValueClip clips the value
	// head's change from the rollout's value (0: no value clipping).
	Clip      float64 `yaml:"clip"`
	ValueClip float64 `yaml:"value_clip"`
	// EntropyCoef weighs the entropy bonus; ValueCoef the value loss.
	EntropyCoef float64 `yaml:"entropy_coef"`
	ValueCoef   float64 `yaml:"value_coef"`
	// NormalizeAdvantages scales each minibatch's advantages to mean 0
	// and standard deviation 1.
	NormalizeAdvantages bool `yaml:"normalize_advantages"`
	// TargetKL ends an iteration's epochs early once a minibatch's
	// approximate KL exceeds it (0: never).
	TargetKL float64 `yaml:"target_kl"`
	// OpeningPlies starts every game after this many uniformly random
	// plies (not trained on).
	OpeningPlies int  `yaml:"opening_plies"`
	Pool         Pool `yaml:"pool"`
}

// Pool is PPO's opponent pool: frozen snapshots of past iterations that a
// share of the games play against, so the policy does not only chase its
// latest self (strategy cycling). The snapshots are the run's own
// checkpoints; the list is stored in each checkpoint's metadata.
type Pool struct {
	// Share is the share of games (of ppo.games) played against a
	// snapshot; 0 turns the pool off.
	Share float64 `yaml:"share"`
	// Size is the number of snapshots kept (the newest).
	Size int `yaml:"size"`
	// Every is the number of iterations between snapshots: iterations
	// every, 2·every, ... join the pool once completed.
	Every int `yaml:"every"`
	// Sampling picks a game's snapshot: uniform, or recency (weight
	// proportional to rank, the newest highest).
	Sampling string `yaml:"sampling"`
}

// DefaultConfig returns the ppo section's defaults.
func DefaultConfig() Config {
	return Config{Games: 512, Steps: 64, Epochs: 4, Minibatch: 2048, Gamma: 1, Lambda: 0.95,
		Clip: 0.2, ValueClip: 0.2, EntropyCoef: 0.01, ValueCoef: 0.5, NormalizeAdvantages: true,
		Pool: Pool{Share: 0, Size: 8, Every: 5, Sampling: "uniform"}}
}

var poolSamplings = []string{"uniform", "recency"}

// checkConfig validates the ppo section p of a ppo config; its openings
// must leave a ply before the rules' cap.
func checkConfig(_ *train.Config, p Config, game *env.Game) error {
	checks := []error{
		train.IntRange("ppo.games", p.Games, 1, train.MaxParallel),
		train.IntRange("ppo.steps", p.Steps, 1, 1<<16),
		train.IntRange("ppo.epochs", p.Epochs, 1, 1000),
		train.IntRange("ppo.minibatch", p.Minibatch, 1, train.MaxBatch),
		train.FloatRange("ppo.gamma", p.Gamma, 0, 1, false, false),
		train.FloatRange("ppo.lambda", p.Lambda, 0, 1, false, false),
		train.FloatRange("ppo.clip", p.Clip, 0, 10, true, false),
		train.FloatRange("ppo.value_clip", p.ValueClip, 0, 10, false, false),
		train.FloatRange("ppo.entropy_coef", p.EntropyCoef, 0, 10, false, false),
		train.FloatRange("ppo.value_coef", p.ValueCoef, 0, 100, false, false),
		train.FloatRange("ppo.target_kl", p.TargetKL, 0, 10, false, false),
		train.IntRange("ppo.opening_plies", p.OpeningPlies, 0, train.MaxOpeningPlies),
		train.FloatRange("ppo.pool.share", p.Pool.Share, 0, 1, false, true),
		train.IntRange("ppo.pool.size", p.Pool.Size, 1, 1024),
		train.IntRange("ppo.pool.every", p.Pool.Every, 1, 1<<20),
		train.OneOf("ppo.pool.sampling", p.Pool.Sampling, poolSamplings),
		train.CheckOpening("ppo.opening_plies", p.OpeningPlies, game, true),
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	if int64(p.Games)*int64(p.Steps) > 1<<24 {
		return train.ConfigErrorf("ppo.steps", "ppo.games × ppo.steps = %d moves per rollout is more than %d", int64(p.Games)*int64(p.Steps), 1<<24)
	}
	return nil
}
