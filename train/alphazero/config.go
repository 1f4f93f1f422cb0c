package alphazero

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/memlimit"
	"github.com/urim-rl/urim/train"
)

// Alphazero's config sections, printed after network in this order: the
// schema's part that is alphazero's. Read a config's with Of, replace it
// with Set (train.SectionHandle).
var (
	// SearchSection is the search section ([Search]).
	SearchSection = train.NewSection("search", "network", defaultSearch, checkSearch)
	// SelfPlaySection is the selfplay section ([SelfPlay]).
	SelfPlaySection = train.NewSection("selfplay", "search", defaultSelfPlay, checkSelfPlay)
	// ReplaySection is the replay section ([Replay]).
	ReplaySection = train.NewSection("replay", "selfplay", defaultReplay, checkReplay)
	// TrainingSection is the training section ([Training]).
	TrainingSection = train.NewSection("training", "replay", func() Training { return Training{} }, checkTraining)
)

// sections are alphazero's sections, as its Spec lists them.
var sections = []train.Section{SearchSection, SelfPlaySection, ReplaySection, TrainingSection}

// Search is the search section: the search of self-play.
type Search struct {
	// Sims is the number of simulations per searched move: a number, or a
	// schedule over the run's iterations ([Sims]).
	Sims Sims `yaml:"sims"`
	// CPuct is the exploration constant of the PUCT rule.
	CPuct float64 `yaml:"c_puct"`
	// DirichletAlpha is the concentration of the noise mixed into the root
	// priors; DirichletFraction its weight (0 turns the noise off).
	DirichletAlpha    float64 `yaml:"dirichlet_alpha"`
	DirichletFraction float64 `yaml:"dirichlet_fraction"`
	// Temperature applies to the visit counts when choosing the move played
	// in the first TemperaturePlies plies of a game; FinalTemperature after
	// (0 plays the most visited move).
	Temperature      float64 `yaml:"temperature"`
	TemperaturePlies int     `yaml:"temperature_plies"`
	FinalTemperature float64 `yaml:"final_temperature"`
	// LeafBatch is the number of leaves each game's search collects (with
	// virtual loss) before one network call.
	LeafBatch int `yaml:"leaf_batch"`
	// PlayoutCap is KataGo's playout-cap randomization.
	PlayoutCap PlayoutCap `yaml:"playout_cap"`
	// RootPolicyTemperature is KataGo's root policy temperature: the root's
	// priors at every full search become P^(1/T), renormalised, before the
	// Dirichlet noise; 1 leaves them alone.
	RootPolicyTemperature float64 `yaml:"root_policy_temperature"`
	// ForcedPlayouts is the k of KataGo's forced playouts and policy target
	// pruning at the root of every full search (n_forced = √(k·P·N); 0:
	// off; KataGo uses 2).
	ForcedPlayouts float64 `yaml:"forced_playouts"`
	// EndgameBoost gives a band of endgames deeper full searches.
	EndgameBoost EndgameBoost `yaml:"endgame_boost"`
	// Root is the search at the root: puct (AlphaZero: PUCT with Dirichlet
	// noise, the move drawn from the visits at the temperature) or gumbel
	// (Gumbel AlphaZero: Gumbel-top-k and Sequential Halving at the root,
	// the policy target softmax(logits + σ(completed Q)), the move the
	// search's own; the Dirichlet and temperature keys then do not apply).
	Root string `yaml:"root"`
	// Gumbel holds the constants of root: gumbel.
	Gumbel GumbelSearch `yaml:"gumbel"`
	// Precision is the arithmetic of self-play's forward passes: fp32, or
	// int8 (the hidden layers quantised from the float32 network whenever
	// its weights change; nn.Precision). Training stays float32.
	Precision string `yaml:"precision"`
}

// GumbelSearch holds the constants of the Gumbel root (agents.GumbelConfig).
type GumbelSearch struct {
	// M is the number of root actions sampled (Gumbel-top-k), at most the
	// legal ones.
	M int `yaml:"m"`
	// CVisit and CScale scale the completed Q-values: σ(q̂) = (c_visit +
	// max visits) · c_scale · q̂.
	CVisit float64 `yaml:"c_visit"`
	CScale float64 `yaml:"c_scale"`
}

// EndgameBoost gives the full searches of a band of endgames more
// simulations (classic.SelfPlayPolicy.BoostSims): with an endgame table,
// the layers just beyond it, whose searches reach the table's exact values
// within a move or two, get near-exact policy targets.
type EndgameBoost struct {
	// Sims is the simulations of those searches; 0 turns the boost off.
	Sims int `yaml:"sims"`
	// MinSeeds and MaxSeeds bound the seeds on the board of a boosted
	// position.
	MinSeeds int `yaml:"min_seeds"`
	MaxSeeds int `yaml:"max_seeds"`
}

// PlayoutCap is KataGo's playout-cap randomization: a share of moves get the
// full search and are trained on; the others get a small, noise-free search
// and are only played.
type PlayoutCap struct {
	// Enabled turns it on (off by default: every move is searched fully).
	Enabled bool `yaml:"enabled"`
	// FullShare is the probability that a move gets the full search.
	FullShare float64 `yaml:"full_share"`
	// FastSims is the simulations of the small search.
	FastSims int `yaml:"fast_sims"`
}

// SelfPlay sets how games are generated.
type SelfPlay struct {
	// GamesPerIteration is the number of self-play games of an iteration.
	GamesPerIteration int `yaml:"games_per_iteration"`
	// ParallelGames is the number of games searched in lock-step, their
	// leaves evaluated in one network batch.
	ParallelGames int `yaml:"parallel_games"`
	// OpeningPlies is the number of uniformly random plies each game starts
	// with (not trained on).
	OpeningPlies int `yaml:"opening_plies"`
	// SampleGames is the number of games per iteration written to
	// selfplay/games.jsonl for inspection.
	SampleGames int    `yaml:"sample_games"`
	Resign      Resign `yaml:"resign"`
}

// Resign lets a game stop early when the searcher is sure to lose.
type Resign struct {
	// Threshold resigns when the root value of the player to move stays
	// below it; 0 turns resignation off. Must lie in (-1, 0).
	Threshold float64 `yaml:"threshold"`
	// Consecutive is the number of the mover's consecutive searched moves
	// that must be below Threshold.
	Consecutive int `yaml:"consecutive"`
	// NeverShare is the share of games that never resign, played out to
	// measure how many resignations would have been wrong.
	NeverShare float64 `yaml:"never_share"`
}

// Replay is the replay window: the most recent positions trained on, kept
// as dataset shards (the run's own self-play in replay/ of the run
// directory; docs/config.md).
type Replay struct {
	// Window is the number of most recent positions kept for training.
	Window int `yaml:"window"`
	// MinPositions is the number of positions needed before training
	// starts (self-play continues until then).
	MinPositions int `yaml:"min_positions"`
	// Datasets are dataset directories (urim selfplay's output, another
	// run's dataset.dir or replay/) whose positions with a policy target
	// start the window of a new run, in order, before its own self-play:
	// a run trains on them from its first iteration, and they age out of
	// the window as self-play adds positions. They must be for the run's
	// rules, encoding and reward. A relative path is relative to the
	// current directory.
	Datasets []string `yaml:"datasets"`
}

// Training sets where alphazero's training targets come from, beside the
// self-play search and the games' outcomes.
type Training struct {
	// Tablebase, when set, is an endgame table file ('urim tablebase
	// build') for the run's rules: every position of the replay window the
	// table holds exactly takes the table's value (the reward of perfect
	// play for the player to move) as its value target instead of the
	// game's outcome, and the self-play search ends its simulations at the
	// positions the table holds, valued from it (the search's tb=FILE). The
	// datasets on disk keep the outcomes; the targets are replaced as rows
	// enter the window. A relative path is relative to the current
	// directory.
	Tablebase string `yaml:"tablebase"`
	// TablebaseSeeds, when above 0 and Tablebase is not set, gives the run
	// the table of every position with at most this many seeds of its own
	// rules, used as Tablebase is: built when the run starts (14 seeds of
	// urim: 4.5 M positions, about 45 s of one core and 19 MB), kept in the
	// run directory as tablebase-K.tb and loaded again on resume, so a
	// config names the recipe without a file to make first.
	TablebaseSeeds int `yaml:"tablebase_seeds"`
	// TablebasePolicy also makes the policy target of those positions
	// uniform over the table's best moves: the position's, analysed with
	// only itself as history, read in one probe from a table built with
	// its best moves (urim tablebase build --best-moves; tablebase_seeds
	// then builds them), else tablebase.Best with the position's history,
	// many times a probe's cost (agents.TableTarget).
	TablebasePolicy bool `yaml:"tablebase_policy"`
	// TablebaseSample is the share of each training batch drawn from the
	// table itself rather than the replay window: positions uniform over
	// the seed counts 1 … K as `urim eval accuracy` draws them, with the
	// table's value and best moves as targets (tableSampler), whether or
	// not TablebasePolicy gives the window's rows the best moves too. 0:
	// none.
	TablebaseSample float64 `yaml:"tablebase_sample"`
	// TablebaseSampleMinSeeds is the fewest seeds of a table sample: the
	// seed count is uniform over TablebaseSampleMinSeeds … K, so a value
	// above 1 weights the samples towards the table's top layers, the
	// positions nearest those beyond it. 0 means 1.
	TablebaseSampleMinSeeds int `yaml:"tablebase_sample_min_seeds"`
	// ScoreWeight, above 0, gives a new run's network KataGo's auxiliary
	// score head (nn.Arch.Score) and adds ScoreWeight times its mean
	// squared error to the loss: the head predicts the game's final seed
	// margin for the player to move over the rules' seeds (the value
	// target stays the reward). A row's margin comes from its game's
	// record (dataset.Record.Margin: a resigned game concedes the seeds on
	// the board to the winner), and, where the table replaces the value
	// target (training.tablebase) or draws the row (tablebase_sample),
	// from the table: the seeds captured plus the table's exact share of
	// the rest. 0: no head, today's run bit for bit.
	ScoreWeight float64 `yaml:"score_weight"`
}

// MaxScoreWeight bounds training.score_weight.
const MaxScoreWeight = 100

// readsBestMoves reports whether the training targets read the table's best
// moves, so a table built for the run stores them.
func (t Training) readsBestMoves() bool { return t.TablebasePolicy || t.TablebaseSample > 0 }

// MaxTablebaseSeeds bounds training.tablebase_seeds: the build of 16 seeds
// of urim holds about 1.3 GiB; a bigger table is built once with 'urim
// tablebase build' and named by training.tablebase.
const MaxTablebaseSeeds = 16

func defaultSearch() Search {
	return Search{Sims: ConstSims(100), Root: "puct", Gumbel: GumbelSearch{M: 16, CVisit: 50, CScale: 0.1}, CPuct: 1.5, DirichletAlpha: 0.5, DirichletFraction: 0.25,
		Temperature: 1, TemperaturePlies: 12, FinalTemperature: 0, LeafBatch: 8,
		PlayoutCap: PlayoutCap{FullShare: 0.25, FastSims: 20}, RootPolicyTemperature: 1, EndgameBoost: EndgameBoost{MinSeeds: 15, MaxSeeds: 16}, Precision: "fp32"}
}

func defaultSelfPlay() SelfPlay {
	return SelfPlay{GamesPerIteration: 128, ParallelGames: 64, OpeningPlies: 2, SampleGames: 4,
		Resign: Resign{Threshold: 0, Consecutive: 3, NeverShare: 0.1}}
}

func defaultReplay() Replay { return Replay{Window: 100000, MinPositions: 1000} }

// roots are the allowed values of search.root.
var roots = []string{"puct", "gumbel"}

// precisions are the allowed values of search.precision (nn.ParsePrecision).
var precisions = []string{"fp32", "int8"}

// maxWindow bounds replay.window.
const maxWindow = 1 << 26

// checkSearch validates the search section.
func checkSearch(c *train.Config, s Search, _ *env.Game) error {
	return train.FirstError(
		checkSims(s.Sims, c.Stop.Iterations),
		train.OneOf("search.root", s.Root, roots),
		train.OneOf("search.precision", s.Precision, precisions),
		train.IntRange("search.gumbel.m", s.Gumbel.M, 1, 64),
		train.FloatRange("search.gumbel.c_visit", s.Gumbel.CVisit, 0, 1e6, true, false),
		train.FloatRange("search.gumbel.c_scale", s.Gumbel.CScale, 0, 1000, true, false),
		train.FloatRange("search.c_puct", s.CPuct, 0, 100, true, false),
		train.FloatRange("search.dirichlet_alpha", s.DirichletAlpha, 0, 100, true, false),
		train.FloatRange("search.dirichlet_fraction", s.DirichletFraction, 0, 1, false, false),
		train.FloatRange("search.temperature", s.Temperature, 0, 10, false, false),
		train.IntRange("search.temperature_plies", s.TemperaturePlies, 0, 100000),
		train.FloatRange("search.final_temperature", s.FinalTemperature, 0, 10, false, false),
		train.IntRange("search.leaf_batch", s.LeafBatch, 1, 256),
		train.FloatRange("search.playout_cap.full_share", s.PlayoutCap.FullShare, 0, 1, true, false),
		train.IntRange("search.playout_cap.fast_sims", s.PlayoutCap.FastSims, 1, train.MaxSims),
		train.FloatRange("search.root_policy_temperature", s.RootPolicyTemperature, 0.1, 10, false, false),
		train.FloatRange("search.forced_playouts", s.ForcedPlayouts, 0, 100, false, false),
		train.IntRange("search.endgame_boost.sims", s.EndgameBoost.Sims, 0, train.MaxSims),
		train.IntRange("search.endgame_boost.min_seeds", s.EndgameBoost.MinSeeds, 0, 1000),
		train.IntRange("search.endgame_boost.max_seeds", s.EndgameBoost.MaxSeeds, s.EndgameBoost.MinSeeds, 1000))
}

// checkSelfPlay validates the selfplay section; its openings must leave a
// ply before the rules' cap.
func checkSelfPlay(_ *train.Config, sp SelfPlay, game *env.Game) error {
	return train.FirstError(
		train.IntRange("selfplay.games_per_iteration", sp.GamesPerIteration, 1, 1<<20),
		train.IntRange("selfplay.parallel_games", sp.ParallelGames, 1, train.MaxParallel),
		train.IntRange("selfplay.opening_plies", sp.OpeningPlies, 0, train.MaxOpeningPlies),
		train.IntRange("selfplay.sample_games", sp.SampleGames, 0, 1<<20),
		checkResign(sp.Resign),
		train.CheckOpening("selfplay.opening_plies", sp.OpeningPlies, game, true))
}

func checkResign(r Resign) error {
	if r.Threshold != 0 {
		if err := train.FloatRange("selfplay.resign.threshold", r.Threshold, -1, 0, true, true); err != nil {
			return train.ConfigErrorf("selfplay.resign.threshold", "%g is out of range (-1, 0); 0 turns resignation off", r.Threshold)
		}
	}
	return train.FirstError(
		train.IntRange("selfplay.resign.consecutive", r.Consecutive, 1, 1000),
		train.FloatRange("selfplay.resign.never_share", r.NeverShare, 0, 1, false, false))
}

// checkReplay validates the replay section: its datasets are read, never
// the directories the run writes.
func checkReplay(c *train.Config, r Replay, game *env.Game) error {
	if err := train.FirstError(
		train.IntRange("replay.window", r.Window, 1, maxWindow),
		train.IntRange("replay.min_positions", r.MinPositions, 0, r.Window)); err != nil {
		return err
	}
	// The window is allocated whole when the run starts: it must fit in
	// memory (game is nil for bad rules, reported already).
	if enc, err := env.ParseEncoding(c.Encoding); err == nil && game != nil {
		dim, a := enc.Dim(game), game.PitsPerRow()
		need := BufferBytes(dim, a, r.Window, TrainingSection.Of(c).ScoreWeight > 0)
		if err := memlimit.Check(fmt.Sprintf("replay.window %d (%d bytes a position, %s encoding)", r.Window, need/uint64(r.Window), c.Encoding), need); err != nil {
			return train.ConfigErrorf("replay.window", "%v", err)
		}
	}
	for i, dir := range r.Datasets {
		key := fmt.Sprintf("replay.datasets[%d]", i)
		switch {
		case strings.TrimSpace(dir) == "":
			return train.ConfigErrorf(key, "empty: name a dataset directory")
		case filepath.Clean(dir) == filepath.Clean(c.Output):
			return train.ConfigErrorf(key, "%q is the run directory; name a dataset directory", dir)
		case c.Dataset.Dir != "" && filepath.Clean(dir) == filepath.Clean(c.Dataset.Dir):
			return train.ConfigErrorf(key, "%q is this run's dataset.dir, which it writes", dir)
		}
	}
	return nil
}

// checkTraining checks the training section's table keys (the file itself
// is read when the run starts).
func checkTraining(_ *train.Config, t Training, _ *env.Game) error {
	switch {
	case t.TablebaseSeeds < 0 || t.TablebaseSeeds > MaxTablebaseSeeds:
		return train.ConfigErrorf("training.tablebase_seeds", "%d is out of range (0 to %d; a bigger table is built with 'urim tablebase build' and named by training.tablebase)", t.TablebaseSeeds, MaxTablebaseSeeds)
	case t.TablebaseSeeds > 0 && t.Tablebase != "":
		return train.ConfigErrorf("training.tablebase_seeds", "%d, but training.tablebase names a table too: set one of them", t.TablebaseSeeds)
	case t.TablebasePolicy && t.Tablebase == "" && t.TablebaseSeeds == 0:
		return train.ConfigErrorf("training.tablebase_policy", "true, but neither training.tablebase nor training.tablebase_seeds is set")
	case math.IsNaN(t.TablebaseSample) || t.TablebaseSample < 0 || t.TablebaseSample >= 1:
		return train.ConfigErrorf("training.tablebase_sample", "%v is out of range: a share of the batch, at least 0 and below 1", t.TablebaseSample)
	case t.TablebaseSample > 0 && t.Tablebase == "" && t.TablebaseSeeds == 0:
		return train.ConfigErrorf("training.tablebase_sample", "%v, but neither training.tablebase nor training.tablebase_seeds is set", t.TablebaseSample)
	case t.TablebaseSampleMinSeeds < 0 || t.TablebaseSampleMinSeeds > 64:
		return train.ConfigErrorf("training.tablebase_sample_min_seeds", "%d is out of range (0 or 1 for all the table's seed counts, up to the table's K)", t.TablebaseSampleMinSeeds)
	case t.TablebaseSeeds > 0 && t.TablebaseSampleMinSeeds > t.TablebaseSeeds:
		return train.ConfigErrorf("training.tablebase_sample_min_seeds", "%d, above training.tablebase_seeds (%d): no sample would have so many seeds", t.TablebaseSampleMinSeeds, t.TablebaseSeeds)
	case !(t.ScoreWeight >= 0 && t.ScoreWeight <= MaxScoreWeight):
		return train.ConfigErrorf("training.score_weight", "%v is out of range: the weight of the score loss, from 0 (no score head) to %d", t.ScoreWeight, MaxScoreWeight)
	}
	return nil
}
