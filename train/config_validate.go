package train

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
)

// Allowed values of the string keys.
var (
	networkKinds = []string{"mlp", "resmlp"}
	schedules    = []string{"constant", "cosine", "step"}
	rewards      = []string{"match_points", "win_loss", "seed_margin"}
	encodings    = []string{"compact", "thermometer"}
)

// Limits that keep a typo from asking for the impossible, shared by the
// core's keys and the algorithms' sections.
const (
	// MaxSims bounds the simulations of a search.
	MaxSims = 1 << 20
	// MaxParallel bounds the games played at once.
	MaxParallel = 1 << 14
	// MaxBatch bounds a batch of positions (a training step's).
	MaxBatch = 1 << 16
	// MaxOpeningPlies bounds the random plies of an opening.
	MaxOpeningPlies = 40

	maxWidth = 4096
	maxDepth = 64
)

func bad(key, format string, args ...any) error {
	return &ConfigError{Key: key, Err: fmt.Errorf(format, args...)}
}

// ConfigErrorf returns a *ConfigError about key (a full key path) with a
// formatted message, for a section's check ([NewSection]).
func ConfigErrorf(key, format string, args ...any) error { return bad(key, format, args...) }

// OneOf reports v, the value of key, when it is not one of allowed.
func OneOf(key, v string, allowed []string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return bad(key, "%q is not allowed (allowed: %s)", v, strings.Join(allowed, ", "))
}

// IntRange reports v, the value of key, when it is not in [lo, hi].
func IntRange(key string, v, lo, hi int) error {
	if v < lo || v > hi {
		return bad(key, "%d is out of range (%d to %d)", v, lo, hi)
	}
	return nil
}

// FloatRange reports v, the value of key, when it is not between lo and
// hi, each end excluded when loOpen or hiOpen.
func FloatRange(key string, v, lo, hi float64, loOpen, hiOpen bool) error {
	low, high := "[", "]"
	if loOpen {
		low = "("
	}
	if hiOpen {
		high = ")"
	}
	if v < lo || v > hi || (loOpen && v == lo) || (hiOpen && v == hi) {
		return bad(key, "%g is out of range %s%g, %g%s", v, low, lo, hi, high)
	}
	return nil
}

// FirstError returns the first error that is not nil, or nil: a section's
// check lists its checks in key order.
func FirstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Validate reports the first bad value of c, in the printed order of the
// keys, as a *ConfigError whose Key is the value's path: the core's keys
// here, each of its algorithm's sections by its Check. It changes nothing:
// defaults come from [Default].
func (c *Config) Validate() error {
	if err := checkFinite(c.schemaValue().Elem(), ""); err != nil {
		return err
	}
	game, rulesErr := c.checkRules()
	core := map[string]func() error{
		"algorithm": func() error { return checkAlgorithm(c.Algorithm) },
		"rules":     func() error { return rulesErr },
		"max_plies": func() error { return IntRange("max_plies", c.MaxPlies, 0, 100000) },
		"reward":    func() error { return OneOf("reward", c.Reward, rewards) },
		"encoding":  func() error { return OneOf("encoding", c.Encoding, encodings) },
		"network": func() error {
			return FirstError(
				OneOf("network.kind", c.Network.Kind, networkKinds),
				IntRange("network.width", c.Network.Width, 1, maxWidth),
				IntRange("network.depth", c.Network.Depth, 1, maxDepth),
				c.checkNetworkSize())
		},
		"optimizer": func() error {
			o := c.Optimizer
			return FirstError(
				FloatRange("optimizer.lr", o.LR, 0, 10, true, false),
				OneOf("optimizer.schedule", o.Schedule, schedules),
				FloatRange("optimizer.lr_min", o.LRMin, 0, o.LR, false, false),
				IntRange("optimizer.warmup_steps", o.WarmupSteps, 0, 1<<30),
				IntRange("optimizer.batch_size", o.BatchSize, 1, MaxBatch),
				FloatRange("optimizer.weight_decay", o.WeightDecay, 0, 1, false, false),
				FloatRange("optimizer.grad_clip", o.GradClip, 0, 1e6, false, false),
				FloatRange("optimizer.value_weight", o.ValueWeight, 0, 100, false, false),
				FloatRange("optimizer.samples_per_position", o.SamplesPerPosition, 0, 1000, true, false))
		},
		"evaluation": func() error { return FirstError(c.checkEvaluation(game), c.checkEvalOpenings(game)) },
		"stop": func() error {
			return FirstError(IntRange("stop.iterations", c.Stop.Iterations, 0, 1<<30), c.checkStop())
		},
		"checkpoints": func() error {
			return FirstError(
				IntRange("checkpoints.keep_last", c.Checkpoints.KeepLast, 1, 1<<30),
				IntRange("checkpoints.keep_every", c.Checkpoints.KeepEvery, 0, 1<<30))
		},
		"dataset": c.checkDataset,
		"cluster": c.checkCluster,
		"workers": func() error { return IntRange("workers", c.Workers, 0, 1024) },
	}
	regMu.RLock()
	keys := slices.Clone(order)
	regMu.RUnlock()
	if keys == nil {
		keys = coreKeys()
	}
	for _, key := range keys {
		var err error
		if check, ok := core[key]; ok {
			err = check()
		} else if s, ok := lookupSection(key); ok && s.owner == c.Algorithm && s.check != nil {
			err = s.check(c, game)
		}
		if err != nil {
			return err
		}
	}
	if c.Output == "" {
		return bad("output", "empty: name the run directory")
	}
	return nil
}

// checkRules checks the rules (reading the rules file, if any) and returns
// their game, nil when they are bad.
func (c *Config) checkRules() (*env.Game, error) {
	if c.RulesFile == "" {
		if _, err := env.PresetRules(c.Rules); err != nil {
			return nil, bad("rules", "%q is not a preset (allowed: %s); or set rules_file", c.Rules, strings.Join(env.PresetNames(), ", "))
		}
	}
	r, err := c.RulesOf() // reads and validates the rules file
	if err != nil {
		return nil, err
	}
	return env.MustGame(r), nil // RulesOf validated r
}

// checkEvaluation checks the evaluation keys; game is the rules' game, or
// nil when they are bad (checkRules reports that).
func (c *Config) checkEvaluation(game *env.Game) error {
	e := c.Evaluation
	if err := IntRange("evaluation.every", e.Every, 0, 1<<20); err != nil {
		return err
	}
	if err := c.checkTablebase(); err != nil {
		return err
	}
	if e.Every == 0 {
		if e.Gating.Enabled {
			return bad("evaluation.gating.enabled", "gating needs evaluation (evaluation.every > 0)")
		}
		return nil
	}
	if len(e.Opponents) == 0 && !e.Gating.Enabled {
		return bad("evaluation.opponents", "none listed: name agent specs such as random, greedy, mcts:sims=200 (or set evaluation.every: 0)")
	}
	// With good rules, an opponent's network must be for them
	// (agents.ValidateFor).
	seen := map[string]int{}
	for i, spec := range e.Opponents {
		key := fmt.Sprintf("evaluation.opponents[%d]", i)
		if strings.TrimSpace(spec) == "" {
			return bad(key, "empty agent spec (known agents: %s)", strings.Join(agents.Names(), ", "))
		}
		if spec == BestOpponent {
			seen[spec] = i
			continue
		}
		if err := validateSpec(spec, game); err != nil {
			return &ConfigError{Key: key, Err: err}
		}
		if j, dup := seen[spec]; dup {
			return bad(key, "%q is already evaluation.opponents[%d]", spec, j)
		}
		seen[spec] = i
	}
	if err := IntRange("evaluation.games", e.Games, 2, 1<<20); err != nil {
		return err
	}
	if e.Games%2 != 0 {
		return bad("evaluation.games", "%d is odd: openings are paired (each played twice, seats swapped)", e.Games)
	}
	if err := IntRange("evaluation.sims", e.Sims, 0, MaxSims); err != nil {
		return err
	}
	if err := IntRange("evaluation.opening_plies", e.OpeningPlies, 0, MaxOpeningPlies); err != nil {
		return err
	}
	g := e.Gating
	if g.Elo1 <= g.Elo0 {
		return bad("evaluation.gating.elo1", "%g must exceed elo0 (%g)", g.Elo1, g.Elo0)
	}
	if err := FloatRange("evaluation.gating.alpha", g.Alpha, 0, 0.5, true, true); err != nil {
		return err
	}
	if err := FloatRange("evaluation.gating.beta", g.Beta, 0, 0.5, true, true); err != nil {
		return err
	}
	if err := IntRange("evaluation.gating.max_games", g.MaxGames, 2, 1<<20); err != nil {
		return err
	}
	return nil
}

// checkNetworkSize refuses a network too large to allocate (nn.Arch's
// limit on the hidden layers' weights), which width and depth each within
// range can still make.
func (c *Config) checkNetworkSize() error {
	n := c.Network
	if n.Width < 1 || n.Width > maxWidth || n.Depth < 1 || n.Depth > maxDepth {
		return nil // reported by their own checks
	}
	if err := n.Arch().Validate(); err != nil {
		return &ConfigError{Key: "network", Err: err}
	}
	return nil
}

func (c *Config) checkStop() error {
	if c.Stop.Time < 0 {
		return bad("stop.time", "%v is negative", c.Stop.Time.Std())
	}
	if c.Stop.Iterations == 0 && c.Stop.Time == 0 {
		return bad("stop", "no limit: set stop.iterations or stop.time (or both)")
	}
	return nil
}

func (c *Config) checkDataset() error {
	if c.Dataset.Dir != "" && filepath.Clean(c.Dataset.Dir) == filepath.Clean(c.Output) {
		return bad("dataset.dir", "%q is the run directory; name a directory of its own", c.Dataset.Dir)
	}
	return IntRange("dataset.shard_size", c.Dataset.ShardSize, 0, dataset.MaxShardSize)
}

// checkFinite reports a NaN or infinite float anywhere in v.
func checkFinite(v reflect.Value, prefix string) error {
	switch v.Kind() {
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if !f.IsExported() || tag == "" || tag == "-" {
				continue
			}
			if err := checkFinite(v.Field(i), prefix+tag+"."); err != nil {
				return err
			}
		}
	case reflect.Float32, reflect.Float64:
		if x := v.Float(); math.IsNaN(x) || math.IsInf(x, 0) {
			return &ConfigError{Key: strings.TrimSuffix(prefix, "."), Err: errors.New("not a finite number")}
		}
	}
	return nil
}

// RulesOf returns the rules the run plays: the preset or the rules file,
// with max_plies applied. A relative rules_file is relative to the current
// directory, like output.
func (c *Config) RulesOf() (env.Rules, error) {
	var r env.Rules
	var err error
	if c.RulesFile != "" {
		r, err = env.LoadRules(c.RulesFile)
		if err != nil {
			return r, &ConfigError{Key: "rules_file", Err: err}
		}
	} else if r, err = env.PresetRules(c.Rules); err != nil {
		return r, &ConfigError{Key: "rules", Err: err}
	}
	if c.MaxPlies > 0 {
		r.MaxPlies = c.MaxPlies
	}
	if err := r.Validate(); err != nil {
		return r, &ConfigError{Key: "max_plies", Err: err}
	}
	return r, nil
}

// validateSpec checks an agent spec, for the games of g when g is known.
func validateSpec(spec string, g *env.Game) error {
	if g == nil {
		return agents.Validate(spec)
	}
	return agents.ValidateFor(spec, g)
}
