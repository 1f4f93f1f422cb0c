package train

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// Allowed values of the string keys.
var (
	networkKinds = []string{"mlp", "resmlp"}
	schedules    = []string{"constant", "cosine", "step"}
	rewards      = []string{"match_points", "win_loss", "seed_margin"}
	roots        = []string{"puct", "gumbel"}
	encodings    = []string{"compact", "thermometer"}
)

// Limits that keep a typo from asking for the impossible.
const (
	maxSims         = 1 << 20
	maxWidth        = 4096
	maxDepth        = 64
	maxParallel     = 1 << 14
	maxWindow       = 1 << 26
	maxBatch        = 1 << 16
	maxOpeningPlies = 40
)

func bad(key, format string, args ...any) error {
	return &ConfigError{Key: key, Err: fmt.Errorf(format, args...)}
}

func oneOf(key, v string, allowed []string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return bad(key, "%q is not allowed (allowed: %s)", v, strings.Join(allowed, ", "))
}

func intRange(key string, v, lo, hi int) error {
	if v < lo || v > hi {
		return bad(key, "%d is out of range (%d to %d)", v, lo, hi)
	}
	return nil
}

func floatRange(key string, v, lo, hi float64, loOpen, hiOpen bool) error {
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

// Validate reports the first bad value of c as a *ConfigError whose Key is
// the value's path. It changes nothing: defaults come from [Default].
func (c *Config) Validate() error {
	if err := checkFinite(reflect.ValueOf(c).Elem(), ""); err != nil {
		return err
	}
	game, rulesErr := c.checkRules()
	checks := []error{
		checkAlgorithm(c.Algorithm),
		rulesErr,
		intRange("max_plies", c.MaxPlies, 0, 100000),
		oneOf("reward", c.Reward, rewards),
		oneOf("encoding", c.Encoding, encodings),
		oneOf("network.kind", c.Network.Kind, networkKinds),
		intRange("network.width", c.Network.Width, 1, maxWidth),
		intRange("network.depth", c.Network.Depth, 1, maxDepth),
		c.checkNetworkSize(),
		c.checkSims(),
		oneOf("search.root", c.Search.Root, roots),
		intRange("search.gumbel.m", c.Search.Gumbel.M, 1, 64),
		floatRange("search.gumbel.c_visit", c.Search.Gumbel.CVisit, 0, 1e6, true, false),
		floatRange("search.gumbel.c_scale", c.Search.Gumbel.CScale, 0, 1000, true, false),
		floatRange("search.c_puct", c.Search.CPuct, 0, 100, true, false),
		floatRange("search.dirichlet_alpha", c.Search.DirichletAlpha, 0, 100, true, false),
		floatRange("search.dirichlet_fraction", c.Search.DirichletFraction, 0, 1, false, false),
		floatRange("search.temperature", c.Search.Temperature, 0, 10, false, false),
		intRange("search.temperature_plies", c.Search.TemperaturePlies, 0, 100000),
		floatRange("search.final_temperature", c.Search.FinalTemperature, 0, 10, false, false),
		intRange("search.leaf_batch", c.Search.LeafBatch, 1, 256),
		floatRange("search.playout_cap.full_share", c.Search.PlayoutCap.FullShare, 0, 1, true, false),
		intRange("search.playout_cap.fast_sims", c.Search.PlayoutCap.FastSims, 1, maxSims),
		intRange("selfplay.games_per_iteration", c.SelfPlay.GamesPerIteration, 1, 1<<20),
		intRange("selfplay.parallel_games", c.SelfPlay.ParallelGames, 1, maxParallel),
		intRange("selfplay.opening_plies", c.SelfPlay.OpeningPlies, 0, maxOpeningPlies),
		intRange("selfplay.sample_games", c.SelfPlay.SampleGames, 0, 1<<20),
		c.checkResign(),
		intRange("replay.window", c.Replay.Window, 1, maxWindow),
		intRange("replay.min_positions", c.Replay.MinPositions, 0, c.Replay.Window),
		c.checkReplayDatasets(),
		c.checkTrainingTable(),
		floatRange("optimizer.lr", c.Optimizer.LR, 0, 10, true, false),
		oneOf("optimizer.schedule", c.Optimizer.Schedule, schedules),
		floatRange("optimizer.lr_min", c.Optimizer.LRMin, 0, c.Optimizer.LR, false, false),
		intRange("optimizer.warmup_steps", c.Optimizer.WarmupSteps, 0, 1<<30),
		intRange("optimizer.batch_size", c.Optimizer.BatchSize, 1, maxBatch),
		floatRange("optimizer.weight_decay", c.Optimizer.WeightDecay, 0, 1, false, false),
		floatRange("optimizer.grad_clip", c.Optimizer.GradClip, 0, 1e6, false, false),
		floatRange("optimizer.value_weight", c.Optimizer.ValueWeight, 0, 100, false, false),
		floatRange("optimizer.samples_per_position", c.Optimizer.SamplesPerPosition, 0, 1000, true, false),
		c.checkEvaluation(game),
		c.checkOpenings(game),
		intRange("stop.iterations", c.Stop.Iterations, 0, 1<<30),
		c.checkStop(),
		intRange("checkpoints.keep_last", c.Checkpoints.KeepLast, 1, 1<<30),
		intRange("checkpoints.keep_every", c.Checkpoints.KeepEvery, 0, 1<<30),
		c.checkDataset(),
		c.checkPPO(),
		c.checkCluster(),
		intRange("workers", c.Workers, 0, 1024),
	}
	if c.Output == "" {
		checks = append(checks, bad("output", "empty: name the run directory"))
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
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

func (c *Config) checkResign() error {
	r := c.SelfPlay.Resign
	if r.Threshold != 0 {
		if err := floatRange("selfplay.resign.threshold", r.Threshold, -1, 0, true, true); err != nil {
			return bad("selfplay.resign.threshold", "%g is out of range (-1, 0); 0 turns resignation off", r.Threshold)
		}
	}
	if err := intRange("selfplay.resign.consecutive", r.Consecutive, 1, 1000); err != nil {
		return err
	}
	return floatRange("selfplay.resign.never_share", r.NeverShare, 0, 1, false, false)
}

// checkEvaluation checks the evaluation keys; game is the rules' game, or
// nil when they are bad (checkRules reports that).
func (c *Config) checkEvaluation(game *env.Game) error {
	e := c.Evaluation
	if err := intRange("evaluation.every", e.Every, 0, 1<<20); err != nil {
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
	if err := intRange("evaluation.games", e.Games, 2, 1<<20); err != nil {
		return err
	}
	if e.Games%2 != 0 {
		return bad("evaluation.games", "%d is odd: openings are paired (each played twice, seats swapped)", e.Games)
	}
	if err := intRange("evaluation.sims", e.Sims, 0, maxSims); err != nil {
		return err
	}
	if err := intRange("evaluation.opening_plies", e.OpeningPlies, 0, maxOpeningPlies); err != nil {
		return err
	}
	g := e.Gating
	if g.Elo1 <= g.Elo0 {
		return bad("evaluation.gating.elo1", "%g must exceed elo0 (%g)", g.Elo1, g.Elo0)
	}
	if err := floatRange("evaluation.gating.alpha", g.Alpha, 0, 0.5, true, true); err != nil {
		return err
	}
	if err := floatRange("evaluation.gating.beta", g.Beta, 0, 0.5, true, true); err != nil {
		return err
	}
	if err := intRange("evaluation.gating.max_games", g.MaxGames, 2, 1<<20); err != nil {
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
	if err := (nn.Arch{Kind: n.Kind, Width: n.Width, Depth: n.Depth, LayerNorm: n.LayerNorm}).Validate(); err != nil {
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

func (c *Config) checkReplayDatasets() error {
	for i, dir := range c.Replay.Datasets {
		key := fmt.Sprintf("replay.datasets[%d]", i)
		switch {
		case strings.TrimSpace(dir) == "":
			return bad(key, "empty: name a dataset directory")
		case filepath.Clean(dir) == filepath.Clean(c.Output):
			return bad(key, "%q is the run directory; name a dataset directory", dir)
		case c.Dataset.Dir != "" && filepath.Clean(dir) == filepath.Clean(c.Dataset.Dir):
			return bad(key, "%q is this run's dataset.dir, which it writes", dir)
		}
	}
	return nil
}

func (c *Config) checkDataset() error {
	if c.Dataset.Dir != "" && filepath.Clean(c.Dataset.Dir) == filepath.Clean(c.Output) {
		return bad("dataset.dir", "%q is the run directory; name a directory of its own", c.Dataset.Dir)
	}
	return intRange("dataset.shard_size", c.Dataset.ShardSize, 0, dataset.MaxShardSize)
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
