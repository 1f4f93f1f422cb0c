package bench

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/agents/network"
	"github.com/urim-rl/urim/configs"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/nn/kernels"
	"github.com/urim-rl/urim/train"
	"github.com/urim-rl/urim/train/alphazero"
)

// AZOptions sets the lock-step AlphaZero self-play benchmark ([AZ]): a
// training config's self-play, measured with the driver training runs.
type AZOptions struct {
	// Config is the training config whose self-play is measured: its
	// search and selfplay sections (through alphazero.LockstepConfig, as a
	// run plays), its rules and reward, and its network when Net is nil.
	// Nil means configs/urim.yaml, the canonical training config.
	Config *train.Config
	// Net is the network; nil means an untrained network of the config's
	// architecture for Rules on the config's encoding, made from Seed.
	Net *nn.Net
	// Rules is the game when Net is nil; zero means the config's rules.
	Rules env.Rules
	// Games is the number of games searched in lock-step; 0 means the
	// config's selfplay.parallel_games.
	Games int
	// Sims is the number of simulations per full search; 0 means the
	// config's search.sims.
	Sims int
	// Leaves is the number of leaves per game and round (virtual loss);
	// 0 means the config's search.leaf_batch.
	Leaves int
	// Moves is the number of moves measured per game slot; 0 means 4. One
	// more is played first, unmeasured, to grow the trees and buffers.
	Moves int
	// Threads is the number of goroutines of the forward pass; 0 means 1.
	Threads int
	// Seed seeds the network (when made here) and the search.
	Seed uint64
	// Progress, if set, is called after every measured move round with
	// the rounds done and their total.
	Progress func(done, total int)
	// OnMove, if set, sees every move played, measured or not (a test
	// compares the searches with a training run's).
	OnMove func(*classic.SelfPlayMove)
}

// AZResult is one row of the benchmark.
type AZResult struct {
	Rules   string `json:"rules"`
	Arch    string `json:"arch"`
	Games   int    `json:"games"`
	Sims    int    `json:"sims_per_move"`
	Leaves  int    `json:"leaves_per_round"`
	Threads int    `json:"threads"`
	Backend string `json:"backend"`
	// Precision is the network's arithmetic (search.precision).
	Precision string `json:"precision"`
	// Moves and Simulations are those measured, Seconds their wall time.
	Moves       int64   `json:"moves"`
	Simulations int64   `json:"sims"`
	Seconds     float64 `json:"seconds"`
	SimsPerSec  float64 `json:"sims_per_sec"`
	// CPUSeconds is the process's CPU time over the measured moves, and
	// SimsPerCPUSec the simulations per second of it (0 where the CPU time
	// cannot be read).
	CPUSeconds    float64 `json:"cpu_seconds"`
	SimsPerCPUSec float64 `json:"sims_per_cpu_sec"`
	// NetShare is the share of the CPU time spent in the network's forward
	// pass (of the wall time where the CPU time cannot be read), and
	// NetShareWall its share of the wall time, which on a loaded machine
	// also counts the waits; MeanBatch is the positions per forward pass.
	NetShare     float64 `json:"net_share"`
	NetShareWall float64 `json:"net_share_wall"`
	MeanBatch    float64 `json:"mean_batch"`
	// NetPosPerS is the positions the network evaluated per second of
	// its (CPU) time.
	NetPosPerS float64 `json:"net_positions_per_sec"`
	// AllocsPerSim counts heap allocations per simulation (Go runtime
	// counters, the whole process).
	AllocsPerSim float64 `json:"allocs_per_sim"`
}

var errAZDone = errors.New("bench: enough moves")

// AZ plays self-play games in lock-step as a training run of o.Config
// does (its root noise, temperatures, playout cap and resignation; finished
// games replaced by new ones, from the rules' start) and measures
// simulations per second and the share of the time spent in the network.
func AZ(o AZOptions) (AZResult, error) {
	if o.Games > MaxAZGames {
		return AZResult{}, fmt.Errorf("bench: az: games %d: want at most %d", o.Games, MaxAZGames)
	}
	if o.Games < 0 || o.Sims < 0 || o.Leaves < 0 || o.Moves < 0 || o.Threads < 0 {
		return AZResult{}, fmt.Errorf("bench: az: games %d, sims %d, leaves %d, moves %d, threads %d: want at least 0",
			o.Games, o.Sims, o.Leaves, o.Moves, o.Threads)
	}
	var cfg train.Config
	if o.Config != nil {
		cfg = *o.Config
	} else {
		var err error
		if cfg, err = train.ParseConfig(configs.Urim, configs.UrimName, nil); err != nil {
			return AZResult{}, err
		}
	}
	sp, sc := alphazero.SelfPlaySection.Of(&cfg), alphazero.SearchSection.Of(&cfg)
	if o.Games > 0 {
		sp.ParallelGames, sp.GamesPerIteration = o.Games, max(sp.GamesPerIteration, o.Games)
	}
	if o.Sims > 0 {
		sc.Sims = alphazero.ConstSims(o.Sims)
	}
	if o.Leaves > 0 {
		sc.LeafBatch = o.Leaves
	}
	alphazero.SelfPlaySection.Set(&cfg, sp)
	alphazero.SearchSection.Set(&cfg, sc)
	o.Moves = azDefault(o.Moves, 4)
	o.Threads = azDefault(o.Threads, 1)
	reward, err := env.ParseRewardKind(cfg.Reward)
	if err != nil {
		return AZResult{}, fmt.Errorf("bench: az: %w", err)
	}
	net := o.Net
	if net == nil {
		rules := o.Rules
		if rules.PitsPerRow == 0 {
			if rules, err = cfg.RulesOf(); err != nil {
				return AZResult{}, err
			}
		}
		enc, err := env.ParseEncoding(cfg.Encoding)
		if err != nil {
			return AZResult{}, fmt.Errorf("bench: az: %w", err)
		}
		n := cfg.Network
		if net, err = nn.New(n.Arch(), rules, enc, o.Seed); err != nil {
			return AZResult{}, err
		}
	}
	// The forward passes are timed by the wall clock and by the process's
	// CPU time, which the waits of a loaded machine do not inflate.
	lc := alphazero.LockstepConfig(&cfg, reward)
	if cpuTime() > 0 {
		lc.NetClock = cpuTime
	}
	l, err := network.NewLockstep(net.AtPrecision(alphazero.Precision(&cfg)), lc, o.Threads, o.Seed)
	if err != nil {
		return AZResult{}, err
	}
	o.Games, o.Sims, o.Leaves = lc.Games, lc.Search.Sims, l.Config().Search.Batch
	r := AZResult{Rules: net.Rules().Name, Arch: net.Arch().String(), Games: o.Games, Sims: o.Sims,
		Leaves: o.Leaves, Threads: o.Threads, Backend: kernels.Backend(),
		Precision: alphazero.Precision(&cfg).String()}
	// The first round of moves warms up; the measured part starts after it.
	warm := int64(o.Games)
	total := warm + int64(o.Games*o.Moves)
	var moves int64
	var start time.Time
	var before, after runtime.MemStats
	var s0 classic.LockstepStats
	var cpu0 time.Duration
	err = l.Play(context.Background(), 1<<30, func(m *classic.SelfPlayMove) error {
		if o.OnMove != nil {
			o.OnMove(m)
		}
		moves++
		switch {
		case moves == warm:
			runtime.GC()
			runtime.ReadMemStats(&before)
			s0 = l.Stats()
			cpu0 = cpuTime()
			start = time.Now()
		case moves > warm && (moves-warm)%int64(o.Games) == 0 && o.Progress != nil:
			o.Progress(int((moves-warm)/int64(o.Games)), o.Moves)
		}
		if moves == total {
			return errAZDone
		}
		return nil
	})
	if !errors.Is(err, errAZDone) {
		return r, err
	}
	elapsed := time.Since(start)
	cpu := cpuTime() - cpu0
	runtime.ReadMemStats(&after)
	s1 := l.Stats()
	r.Moves = total - warm
	r.Simulations = s1.Sims - s0.Sims
	r.Seconds = elapsed.Seconds()
	r.SimsPerSec = float64(r.Simulations) / r.Seconds
	r.NetShareWall = (s1.NetTime - s0.NetTime).Seconds() / r.Seconds
	r.NetShare = r.NetShareWall
	netTime := s1.NetTime - s0.NetTime
	if lc.NetClock != nil && cpu > 0 {
		r.CPUSeconds = cpu.Seconds()
		r.SimsPerCPUSec = float64(r.Simulations) / r.CPUSeconds
		netTime = s1.NetClockTime - s0.NetClockTime
		r.NetShare = netTime.Seconds() / r.CPUSeconds
	}
	if rounds := s1.Rounds - s0.Rounds; rounds > 0 {
		r.MeanBatch = float64(s1.Positions-s0.Positions) / float64(rounds)
	}
	if nt := netTime.Seconds(); nt > 0 {
		r.NetPosPerS = float64(s1.Positions-s0.Positions) / nt
	}
	r.AllocsPerSim = float64(after.Mallocs-before.Mallocs) / float64(max(r.Simulations, 1))
	return r, nil
}

// azDefault returns v, or def when v is 0.
func azDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
