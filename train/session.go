package train

import (
	"io"
	"runtime"
	"time"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/splitmix"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/tablebase"
)

// Session is one training session of a run, as an [Algorithm] sees it: the
// config, the game and its encoding, the network with its optimizer state,
// the self-play dataset and the last committed [State]. The core sets it up
// (a new run or a resumed one) before it makes the algorithm.
type Session struct {
	// Config is the run's effective config (validated).
	Config *Config
	// Dir is the run directory.
	Dir      string
	Rules    env.Rules
	Game     *env.Game
	Encoding env.Encoding
	Reward   env.RewardKind
	Encoder  *env.Encoder
	// Log receives notes and summary lines (never nil).
	Log io.Writer

	// Net is the network being trained; Optimizer and Step are its
	// optimizer state and step count, which the algorithm updates after
	// training (they go into the iteration's checkpoint).
	Net       *nn.Net
	Optimizer *nn.OptimizerState
	Step      int64

	// Data writes the run's self-play into dataset.dir; nil (which records
	// nothing) without one.
	Data *GameLog
	// State is the last committed iteration's record.
	State State

	opt      Options
	alg      Algorithm
	metrics  *Table           // metrics.csv as committed
	endgames *tablebase.Table // evaluation.tablebase, or nil
	head     []string
	start    time.Time
	base     float64 // elapsed seconds before this session
	final    bool    // the iteration just run was the last that fits the time budget
	// lastIterS is the previous iteration's duration in this session.
	lastIterS float64
	// first is this session's first iteration (0 outside Run).
	first int
}

// Threads returns the goroutines for search, rollouts and training: the
// config's workers, or one per core.
func (s *Session) Threads() int {
	if s.Config.Workers > 0 {
		return s.Config.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// Seed returns the seed of one purpose (and iteration, game, ...) of the
// run: the run's seed mixed with the parts, so that every stream is
// independent of the others and reproducible from the seed alone.
func (s *Session) Seed(parts ...uint64) uint64 { return Derive(s.Config.Seed, parts...) }

// Derive mixes parts into seed, one splitmix step each: independent streams
// for each iteration, game and purpose.
func Derive(seed uint64, parts ...uint64) uint64 { return splitmix.Chain(seed, parts...) }

// NewTraining returns a trainer of the session's network, resumed from its
// optimizer state and step: the place where training picks the network
// back-end (nn's pure-Go Trainer). Algorithms hold it as an nn.Training
// and store its Checkpoint's optimizer state and step back in the session.
func (s *Session) NewTraining(tc nn.TrainConfig, maxBatch int) (nn.Training, error) {
	t, err := nn.NewTrainerFrom(s.Checkpoint(), tc, maxBatch)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// KeyError reports a problem with the config's key (a path such as
// "search" or "replay.datasets[0]") found when a run starts, as the config
// errors of [ParseConfig] read: "train: config: KEY: problem".
func KeyError(key string, err error) error { return trainError(&ConfigError{Key: key, Err: err}) }

// Checkpoint returns the network with its optimizer state and step.
func (s *Session) Checkpoint() *nn.Checkpoint {
	return &nn.Checkpoint{Net: s.Net, Step: s.Step, Optimizer: s.Optimizer}
}

// Elapsed returns the run's training time so far, in seconds, over every
// session.
func (s *Session) Elapsed() float64 { return s.base + time.Since(s.start).Seconds() }

// ProgressOf returns how far through the run iteration it starts, from 0 to
// 1: by iterations or by the time budget, whichever limit is nearer.
func (s *Session) ProgressOf(it int) float64 {
	p := 0.0
	if n := s.Config.Stop.Iterations; n > 0 {
		p = float64(it-1) / float64(n)
	}
	if b := s.Config.Stop.Time.Std().Seconds(); b > 0 {
		p = max(p, s.Elapsed()/b)
	}
	return p
}

// NewSession returns a session of cfg outside any run directory, on net
// (a new network of cfg's when nil), for driving an algorithm's parts
// directly: tests and benchmarks. Run makes its own.
func NewSession(cfg Config, net *nn.Net) (*Session, error) {
	s := &Session{Config: &cfg, Dir: cfg.Output, Log: io.Discard, start: time.Now(), Net: net}
	if err := s.setGame(); err != nil {
		return nil, err
	}
	if s.Net == nil {
		if err := s.newNet(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// setGame sets the session's rules, game, encoding (with its encoder) and
// reward from its config: what a run and [NewSession] both start with.
func (s *Session) setGame() (err error) {
	cfg := s.Config
	if s.Rules, err = cfg.RulesOf(); err != nil {
		return err
	}
	if s.Game, err = env.NewGame(s.Rules); err != nil {
		return err
	}
	if s.Encoding, err = env.ParseEncoding(cfg.Encoding); err != nil {
		return err
	}
	if s.Reward, err = env.ParseRewardKind(cfg.Reward); err != nil {
		return err
	}
	s.Encoder = env.NewEncoder(s.Game, s.Encoding)
	return nil
}

// newNet sets the session's network to a new one of the config's
// architecture (as the algorithm's Spec.Arch amends it), seeded from the
// run's seed.
func (s *Session) newNet() (err error) {
	if s.Net, err = nn.New(s.Config.NetArch(), s.Rules, s.Encoding, s.Seed(0x6e6574)); err != nil {
		return KeyError("network", err)
	}
	return nil
}
