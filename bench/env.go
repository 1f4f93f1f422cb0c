package bench

import (
	"runtime"
	"sync"
	"time"

	"github.com/urim-rl/urim/env"
)

// EnvOptions sizes [Env]. Zero N or Workers mean {64, 1024, 4096, 16384} and
// {1, 2}; the zero Encoding and AutoReset are compact and next_step.
type EnvOptions struct {
	// N lists the batch sizes, Workers the worker counts; every pair is
	// measured.
	N, Workers []int
	Encoding   env.Encoding
	AutoReset  env.AutoReset
	// OpeningPlies random plies start every game.
	OpeningPlies int
	// Duration is how long each pair steps, unless Steps (game steps, rounded
	// up to whole batch steps) is positive.
	Duration time.Duration
	Steps    int64
	// Progress, when set, is called after each pair with the pairs done and
	// the total.
	Progress func(done, total int)
}

// EnvResult is one row of `urim bench env`: one batch size and worker count.
type EnvResult struct {
	Rules             string  `json:"rules"`
	Encoding          string  `json:"encoding"`
	AutoReset         string  `json:"autoreset"`
	N                 int     `json:"n"`
	Workers           int     `json:"workers"`
	ObsDim            int     `json:"obs_dim"`
	BatchSteps        int64   `json:"batch_steps"`
	Seconds           float64 `json:"seconds"`
	StepsPerSec       float64 `json:"steps_per_sec"`
	StepsPerSecWorker float64 `json:"steps_per_sec_per_worker"`
	NsPerStep         float64 `json:"ns_per_step"`
	Speedup           float64 `json:"speedup_vs_1_worker,omitempty"`
	CPUScaling        float64 `json:"cpu_scaling"`
	AllocsPerBatch    float64 `json:"allocs_per_batch_step"`
	AllocsPerStep     float64 `json:"allocs_per_step"`
	BytesPerGame      float64 `json:"bytes_per_game"`
	EpisodesPerSec    float64 `json:"episodes_per_sec"`
}

func (o EnvOptions) withDefaults() EnvOptions {
	if len(o.N) == 0 {
		o.N = []int{64, 1024, 4096, 16384}
	}
	if len(o.Workers) == 0 {
		o.Workers = []int{1, 2}
	}
	if o.Duration <= 0 && o.Steps <= 0 {
		o.Duration = time.Second
	}
	return o
}

// Env steps an env.Vec with random legal actions (env.RandomActions) for
// every batch size and worker count of o, writing observations and masks
// every step, and returns a row per pair: game steps per second, the
// speed-up over one worker at the same N, allocations per batch step, heap
// bytes per game, and the CPU scaling measured right after each run.
func Env(g *env.Game, o EnvOptions) ([]EnvResult, error) {
	o = o.withDefaults()
	var rows []EnvResult
	total := len(o.N) * len(o.Workers)
	for _, n := range o.N {
		var single float64
		for _, w := range o.Workers {
			r, err := Vec(g, n, w, o)
			if err != nil {
				return nil, err
			}
			r.CPUScaling = CPUScaling(w) // right after the run, under the same load
			if w == 1 {
				single = r.StepsPerSec
			} else if single > 0 {
				r.Speedup = r.StepsPerSec / single
			}
			rows = append(rows, r)
			if o.Progress != nil {
				o.Progress(len(rows), total)
			}
		}
	}
	return rows, nil
}

// Vec steps one Vec of n games on w workers (o's N, Workers and Progress
// are ignored).
func Vec(g *env.Game, n, w int, o EnvOptions) (EnvResult, error) {
	o = o.withDefaults()
	r := EnvResult{Rules: g.Name(), Encoding: o.Encoding.String(), AutoReset: o.AutoReset.String(), N: n, Workers: w}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v, err := env.NewVec(g, n, env.VecOptions{Workers: w, Encoding: o.Encoding, AutoReset: o.AutoReset,
		OpeningPlies: o.OpeningPlies, Seed: 1})
	if err != nil {
		return r, err
	}
	defer v.Close()
	runtime.GC()
	runtime.ReadMemStats(&after)
	r.BytesPerGame = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
	r.ObsDim = v.ObsDim()

	actions := make([]int32, n)
	rng := uint64(0x9E3779B97F4A7C15)
	// disabled is the one mode where games do not restart by themselves.
	restart := make([]bool, n)
	step := func() int {
		env.RandomActions(actions, v.Legal(), &rng)
		if err := v.Step(actions); err != nil {
			panic(err) // RandomActions only draws legal actions
		}
		eps := len(v.Episodes())
		if o.AutoReset == env.AutoResetDisabled && eps > 0 {
			for i := range restart {
				restart[i] = v.Done(i)
			}
			v.ResetMask(restart)
		}
		v.ClearEpisodes()
		return eps
	}
	// Warm up until the games are spread over all stages of play.
	for range 200 {
		step()
	}
	batchLimit := int64(-1)
	if o.Steps > 0 {
		batchLimit = (o.Steps + int64(n) - 1) / int64(n)
	}
	runtime.ReadMemStats(&before)
	start := time.Now()
	deadline := start.Add(o.Duration)
	episodes := 0
	for r.BatchSteps != batchLimit {
		episodes += step()
		r.BatchSteps++
		if batchLimit < 0 && time.Now().After(deadline) {
			break
		}
	}
	secs := time.Since(start).Seconds()
	runtime.ReadMemStats(&after)
	steps := float64(r.BatchSteps) * float64(n)
	r.Seconds = secs
	r.StepsPerSec = steps / secs
	r.StepsPerSecWorker = r.StepsPerSec / float64(w)
	r.NsPerStep = secs * 1e9 / steps
	r.AllocsPerBatch = float64(after.Mallocs-before.Mallocs) / float64(r.BatchSteps)
	r.AllocsPerStep = r.AllocsPerBatch / float64(n)
	r.EpisodesPerSec = float64(episodes) / secs
	return r, nil
}

// CPUScaling times a fixed amount of pure arithmetic on one goroutine and
// on w goroutines at once, and returns how many times more work w
// goroutines did per second: w on an idle machine with w free cores, the
// ceiling for any speed-up measured under the same load.
func CPUScaling(w int) float64 {
	if w <= 1 {
		return 1
	}
	const work = 20_000_000 // xorshift rounds: about 20 ms on one core
	run := func(k int) time.Duration {
		start := time.Now()
		var wg sync.WaitGroup
		for t := range k {
			wg.Add(1)
			go func() {
				defer wg.Done()
				spinSink[t%len(spinSink)] = spin(work)
			}()
		}
		wg.Wait()
		return time.Since(start)
	}
	best1, bestW := time.Hour, time.Hour
	for range 3 { // the best of 3 drops a moment when another process ran
		best1 = min(best1, run(1))
		bestW = min(bestW, run(w))
	}
	return float64(w) * best1.Seconds() / bestW.Seconds()
}

// spinSink keeps spin's results alive so the compiler cannot drop it.
var spinSink [64]uint64

func spin(n int) uint64 {
	x := uint64(88172645463325252)
	for range n {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}
