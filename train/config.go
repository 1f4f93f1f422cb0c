package train

import (
	"fmt"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/urim-rl/urim/internal/config"
	"github.com/urim-rl/urim/nn"
)

// Config is one training run, as read from a YAML file (see docs/config.md
// and configs/urim.yaml, whose comments explain every key). Every field has a
// default ([Default]); a file names only what it changes. The effective
// config, defaults filled in and overrides applied, is what a run stores in
// its directory as config.yaml.
//
// Config holds the core's sections; each algorithm declares its own
// ([NewSection]: search, selfplay, replay and training of train/alphazero,
// ppo of train/ppo), read and replaced through its handle's Of and Set. A
// config's schema is the core and its
// own algorithm's sections: another algorithm's section is refused.
type Config struct {
	// Algorithm selects the training method by its registered name
	// ([Register]): alphazero (train/alphazero), or ppo (train/ppo: policy
	// gradient on the vectorized environment, its settings in the ppo
	// section; docs/ppo.md).
	Algorithm string `yaml:"algorithm"`
	// Rules names a rules preset: urim, urim7, urim4 or oware.
	Rules string `yaml:"rules"`
	// RulesFile, when set, reads custom rules from a YAML file (see
	// docs/rules.md) instead of the preset; a relative path is relative to
	// the current directory.
	RulesFile string `yaml:"rules_file"`
	// MaxPlies caps every game (self-play and evaluation); 0 keeps the
	// rules' own cap.
	MaxPlies int `yaml:"max_plies"`
	// Reward turns a finished game into the value target: match_points
	// (default), win_loss or seed_margin.
	Reward string `yaml:"reward"`
	// Encoding is the network's observation encoding: compact or
	// thermometer.
	Encoding string `yaml:"encoding"`

	Network     Network     `yaml:"network"`
	Optimizer   Optimizer   `yaml:"optimizer"`
	Evaluation  Evaluation  `yaml:"evaluation"`
	Stop        Stop        `yaml:"stop"`
	Checkpoints Checkpoints `yaml:"checkpoints"`
	Dataset     Dataset     `yaml:"dataset"`
	Cluster     Cluster     `yaml:"cluster"`

	// Output is the run directory; a relative path is relative to the
	// current directory.
	Output string `yaml:"output"`
	// Seed seeds the network's initial weights, self-play, sampling and
	// evaluation. With one worker a run is reproducible from its seed.
	Seed uint64 `yaml:"seed"`
	// Workers is the number of goroutines for self-play and evaluation;
	// 0 means one per core.
	Workers int `yaml:"workers"`

	// sections holds the algorithms' sections by key (values of their
	// types; see [SectionHandle.Set]). A missing one is its default.
	sections map[string]any
}

// Network is the architecture of a new network (a resumed run keeps its
// checkpoint's).
type Network struct {
	// Kind is mlp or resmlp (residual blocks of two layers).
	Kind string `yaml:"kind"`
	// Width is the hidden layer size.
	Width int `yaml:"width"`
	// Depth is the number of hidden layers (mlp) or residual blocks
	// (resmlp).
	Depth int `yaml:"depth"`
	// LayerNorm puts a layer normalization before each activation.
	LayerNorm bool `yaml:"layer_norm"`
}

// Arch returns the network's architecture.
func (n Network) Arch() nn.Arch {
	return nn.Arch{Kind: n.Kind, Width: n.Width, Depth: n.Depth, LayerNorm: n.LayerNorm}
}

// NetArch returns the architecture of a new network of the run: the network
// section's, with what the algorithm adds to it (its Spec.Arch: alphazero's
// score head).
func (c *Config) NetArch() nn.Arch {
	a := c.Network.Arch()
	if spec, ok := specOf(c.Algorithm); ok && spec.Arch != nil {
		a = spec.Arch(c, a)
	}
	return a
}

// Optimizer sets the training steps.
type Optimizer struct {
	// LR is the peak learning rate of AdamW.
	LR float64 `yaml:"lr"`
	// Schedule is constant, cosine (to LRMin over the run's planned steps)
	// or step (×0.1 at 50% and 75% of them).
	Schedule string `yaml:"schedule"`
	// LRMin is the final learning rate of the cosine schedule.
	LRMin float64 `yaml:"lr_min"`
	// WarmupSteps ramps the learning rate linearly from 0.
	WarmupSteps int `yaml:"warmup_steps"`
	// BatchSize is the positions per training step.
	BatchSize int `yaml:"batch_size"`
	// WeightDecay is AdamW's decoupled weight decay.
	WeightDecay float64 `yaml:"weight_decay"`
	// GradClip clips the global gradient norm; 0 means no clipping.
	GradClip float64 `yaml:"grad_clip"`
	// ValueWeight weighs the value loss against the policy loss.
	ValueWeight float64 `yaml:"value_weight"`
	// SamplesPerPosition is how many times, on average, each new position
	// is sampled for training: an iteration takes positions ×
	// samples_per_position / batch_size steps.
	SamplesPerPosition float64 `yaml:"samples_per_position"`
}

// Evaluation rates the network during the run.
type Evaluation struct {
	// Every is the number of iterations between evaluations (and after the
	// last); 0 turns evaluation off.
	Every int `yaml:"every"`
	// Opponents are agent specs (urim eval --help lists them). random is
	// the anchor at 0 Elo, as in configs/bench-classical.yaml; best
	// ([BestOpponent]) is the run's best network so far.
	Opponents []string `yaml:"opponents"`
	// Games is the number of games against each opponent (even: paired).
	Games int `yaml:"games"`
	// Sims is the candidate's simulations per move; 0 means the
	// algorithm's own (alphazero's search.sims).
	Sims int `yaml:"sims"`
	// OpeningPlies is the random plies of the paired openings.
	OpeningPlies int `yaml:"opening_plies"`
	// Gating holds a candidate back from best until it beats best.
	Gating Gating `yaml:"gating"`
	// Tablebase, when set, is an endgame table file ('urim tablebase
	// build') for the run's rules: each evaluation also scores the
	// candidate's moves against it on positions the table holds
	// (evaluate.Accuracy), into metrics.csv's tb_* columns. A relative path
	// is relative to the current directory.
	Tablebase string `yaml:"tablebase"`
	// TablebasePositions is the number of positions scored each time (the
	// same positions every evaluation); 0 means 1000.
	TablebasePositions int `yaml:"tablebase_positions"`
}

// Gating is an SPRT between the candidate and the current best network; it
// becomes best only if the test accepts H1.
type Gating struct {
	Enabled bool `yaml:"enabled"`
	// Elo0 and Elo1 are the SPRT hypotheses, in Elo.
	Elo0 float64 `yaml:"elo0"`
	Elo1 float64 `yaml:"elo1"`
	// Alpha and Beta are the error rates.
	Alpha float64 `yaml:"alpha"`
	Beta  float64 `yaml:"beta"`
	// MaxGames ends an undecided test (the candidate is not promoted).
	MaxGames int `yaml:"max_games"`
}

// Stop ends the run: after Iterations or when Time has passed, whichever
// comes first (0: no limit; at least one must be set).
type Stop struct {
	Iterations int      `yaml:"iterations"`
	Time       Duration `yaml:"time"`
}

// Checkpoints says which iteration checkpoints (checkpoints/iter-NNNN.ckpt)
// a run keeps once an iteration is committed. Whatever the settings, the
// last completed iteration's (resume starts from it), the best network's
// (gating plays against it) and PPO's opponent-pool snapshots stay, beside
// latest.ckpt and best.ckpt; the rest are deleted.
type Checkpoints struct {
	// KeepLast keeps the newest KeepLast iterations' checkpoints (at least
	// 1: the last completed one).
	KeepLast int `yaml:"keep_last"`
	// KeepEvery also keeps every iteration that is a multiple of it (0:
	// none; 1: every checkpoint, nothing is deleted).
	KeepEvery int `yaml:"keep_every"`
}

// Dataset writes the run's self-play as a dataset (docs/dataset.md), the
// format of urim selfplay: every fully searched move's position, mask,
// visit distribution, root value and outcome.
type Dataset struct {
	// Dir is the dataset directory; empty writes none. A relative path is
	// relative to the current directory, like output.
	Dir string `yaml:"dir"`
	// ShardSize is the positions at which a shard is cut (after the game
	// that reaches it; an iteration's last shard may be smaller); 0 means
	// dataset.DefaultShardPositions.
	ShardSize int `yaml:"shard_size"`
}

// Duration is a time.Duration written as "90s", "10m" or "1h30m" in YAML.
type Duration time.Duration

// UnmarshalYAML reads a duration string, or 0. Its errors carry the line
// of the value, so that the decoder names the line and the key.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return &config.Error{Line: n.Line, Err: fmt.Errorf("want a duration such as 10m or 1h30m")}
	}
	v := strings.TrimSpace(n.Value)
	if v == "0" || v == "" {
		*d = 0
		return nil
	}
	t, err := time.ParseDuration(v)
	if err != nil {
		return &config.Error{Line: n.Line, Err: fmt.Errorf("%q is not a duration such as 90s, 10m or 1h30m", v)}
	}
	*d = Duration(t)
	return nil
}

// MarshalYAML writes the duration as a string ("10m0s"), or 0.
func (d Duration) MarshalYAML() (any, error) {
	if d == 0 {
		return 0, nil
	}
	return time.Duration(d).String(), nil
}

// Seconds returns d in seconds (and marks Duration as a duration for the
// strict decoder, which then accepts "10m").
func (d Duration) Seconds() float64 { return time.Duration(d).Seconds() }

// Std returns d as a time.Duration.
func (d Duration) Std() time.Duration { return time.Duration(d) }

// Default returns the config every file starts from, every registered
// section's default included.
func Default() Config {
	return Config{
		Algorithm: "alphazero",
		Rules:     "urim",
		Reward:    "match_points",
		Encoding:  "compact",
		Network:   Network{Kind: "resmlp", Width: 128, Depth: 3, LayerNorm: true},
		Optimizer: Optimizer{LR: 1e-3, Schedule: "cosine", LRMin: 1e-5, WarmupSteps: 100, BatchSize: 256,
			WeightDecay: 1e-4, GradClip: 1, ValueWeight: 1, SamplesPerPosition: 4},
		Evaluation: Evaluation{Every: 5, Opponents: []string{"random", "greedy", "alphabeta:depth=8", "mcts:sims=1000", BestOpponent}, Games: 40, OpeningPlies: 4,
			Gating: Gating{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05, MaxGames: 400}},
		Stop:        Stop{Iterations: 20},
		Checkpoints: Checkpoints{KeepLast: 5, KeepEvery: 10},
		Cluster:     DefaultCluster(),
		Output:      "runs/train",
		Seed:        1,
		sections:    defaultSections(),
	}
}
