package bench

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/nn/kernels"
)

// NNOptions sets up the network benchmark. Zero fields take the defaults
// named on each.
type NNOptions struct {
	// Arch is the network; zero means nn.DefaultArch().
	Arch nn.Arch
	// Rules is the ruleset; zero (no pits) means env.Urim.
	Rules env.Rules
	// Encoding is the observation encoding (compact by default).
	Encoding env.Encoding
	// TrainBatches are the batch sizes of the training steps (256, 1024).
	TrainBatches []int
	// PredictBatches are the batch sizes of inference (1, 64, 512).
	PredictBatches []int
	// Threads are the thread counts to measure (1, 2).
	Threads []int
	// Backends are the kernels back-ends to measure; nil means the one in
	// use (kernels.Backend()).
	Backends []string
	// Precisions are the precisions of inference to measure, side by side
	// (nil: fp32 alone); training is always float32.
	Precisions []nn.Precision
	// Round is how long each configuration runs per round (200ms).
	Round time.Duration
	// Rounds is the number of interleaved rounds; each figure is the median
	// over them (5).
	Rounds int
	// Progress, when set, is called after each measurement.
	Progress func()
}

// NNRow is one measured configuration.
type NNRow struct {
	Backend string `json:"backend"`
	// Kind is "train" (forward, loss, backward, AdamW) or "predict".
	Kind string `json:"kind"`
	// Precision is the arithmetic of the forward pass: "fp32" or "int8".
	Precision string `json:"precision"`
	Arch      string `json:"arch"`
	Batch     int    `json:"batch"`
	Threads   int    `json:"threads"`
	// StepsPerSec are training steps (or Predict calls) per second, the
	// median over the rounds.
	StepsPerSec float64 `json:"steps_per_sec"`
	// PositionsPerSec is StepsPerSec × Batch.
	PositionsPerSec float64 `json:"positions_per_sec"`
	// MicrosPerStep is 1e6 / StepsPerSec.
	MicrosPerStep float64 `json:"us_per_step"`
	// CPUMicrosPerStep is the process's CPU time per call (all threads,
	// median over the rounds): on a shared machine it shows the work done
	// better than the wall clock, which also counts time spent waiting.
	CPUMicrosPerStep float64 `json:"cpu_us_per_step"`
	// Spread is (max − min) / median over the rounds: the noise.
	Spread float64 `json:"spread"`
	// AllocsPerStep is the heap allocations per call, over all rounds.
	AllocsPerStep float64 `json:"allocs_per_step"`
}

func (o *NNOptions) defaults() {
	if o.Arch == (nn.Arch{}) {
		o.Arch = nn.DefaultArch()
	}
	if o.Rules.PitsPerRow == 0 {
		o.Rules = env.Urim
	}
	if o.TrainBatches == nil {
		o.TrainBatches = []int{256, 1024}
	}
	if o.PredictBatches == nil {
		o.PredictBatches = []int{1, 64, 512}
	}
	if o.Threads == nil {
		o.Threads = []int{1, 2}
	}
	if o.Backends == nil {
		o.Backends = []string{kernels.Backend()}
	}
	if o.Precisions == nil {
		o.Precisions = []nn.Precision{nn.FP32}
	}
	if o.Round <= 0 {
		o.Round = 200 * time.Millisecond
	}
	if o.Rounds <= 0 {
		o.Rounds = 5
	}
}

// NNMeasurements returns the number of measurements RunNN makes (for a
// progress bar).
func NNMeasurements(o NNOptions) int {
	o.defaults()
	return len(o.Backends) * o.Rounds * len(o.Threads) * (len(o.TrainBatches) + len(o.Precisions)*len(o.PredictBatches))
}

// nnCase is one configuration being measured.
type nnCase struct {
	row   NNRow
	run   func() // one step or one Predict call
	rates []float64
	cpu   []float64
	calls int64
	alloc uint64
}

// RunNN measures training steps per second and positions per second of the
// network in o, for every back-end, batch and thread count, interleaving the
// configurations round by round so that a change in the machine's load
// touches all of them alike. It restores the kernels back-end it found.
func RunNN(o NNOptions) ([]NNRow, error) {
	o.defaults()
	if err := o.check(); err != nil {
		return nil, err
	}
	prev := kernels.Backend()
	defer kernels.Use(prev)
	var rows []NNRow
	for _, be := range o.Backends {
		if err := kernels.Use(be); err != nil {
			return nil, err
		}
		r, err := runNNBackend(o, be)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return rows, nil
}

func runNNBackend(o NNOptions, be string) ([]NNRow, error) {
	net, err := nn.New(o.Arch, o.Rules, o.Encoding, 1)
	if err != nil {
		return nil, err
	}
	var cases []*nnCase
	var closers []func()
	defer func() {
		for _, c := range closers {
			c()
		}
	}()
	for _, b := range o.TrainBatches {
		batch, err := NNBatch(net, b, 1)
		if err != nil {
			return nil, err
		}
		for _, th := range o.Threads {
			// Each trainer trains its own copy, so configurations do not
			// change one another's weights.
			tr, err := nn.NewTrainer(net.Clone(), nn.TrainConfig{Threads: th, ClipNorm: 1, Optimizer: nn.AdamW{WeightDecay: 1e-4},
				Schedule: nn.Schedule{LR: 1e-4}}, b)
			if err != nil {
				return nil, err
			}
			closers = append(closers, tr.Close)
			cases = append(cases, &nnCase{row: NNRow{Backend: be, Kind: "train", Precision: nn.FP32.String(), Arch: o.Arch.String(), Batch: b, Threads: th},
				run: func() { tr.Step(batch) }})
		}
	}
	for _, b := range o.PredictBatches {
		batch, err := NNBatch(net, b, 2)
		if err != nil {
			return nil, err
		}
		for _, th := range o.Threads {
			for _, prec := range o.Precisions {
				p := net.NewPredictor(b)
				p.SetThreads(th)
				p.SetPrecision(prec)
				cases = append(cases, &nnCase{row: NNRow{Backend: be, Kind: "predict", Precision: prec.String(), Arch: o.Arch.String(), Batch: b, Threads: th},
					run: func() { p.Predict(batch.Obs, b) }})
			}
		}
	}
	for _, c := range cases { // warm-up: buffers, caches, the kernels' pools
		for range 3 {
			c.run()
		}
	}
	var ms runtime.MemStats
	for range o.Rounds {
		for _, c := range cases {
			// Only the calls run between the two memory readings, so the
			// allocation count is theirs (and whatever other goroutines do).
			cpu0 := cpuTime()
			runtime.ReadMemStats(&ms)
			before := ms.Mallocs
			calls := 0
			start := time.Now()
			var el time.Duration
			for el < o.Round || calls < 2 {
				c.run()
				calls++
				el = time.Since(start)
			}
			runtime.ReadMemStats(&ms)
			cpu := cpuTime() - cpu0
			c.alloc += ms.Mallocs - before
			c.calls += int64(calls)
			c.rates = append(c.rates, float64(calls)/el.Seconds())
			c.cpu = append(c.cpu, float64(cpu.Microseconds())/float64(calls))
			if o.Progress != nil {
				o.Progress()
			}
		}
	}
	rows := make([]NNRow, len(cases))
	for i, c := range cases {
		slices.Sort(c.rates)
		slices.Sort(c.cpu)
		med := c.rates[len(c.rates)/2]
		r := c.row
		r.StepsPerSec = med
		r.PositionsPerSec = med * float64(r.Batch)
		r.MicrosPerStep = 1e6 / med
		r.CPUMicrosPerStep = c.cpu[len(c.cpu)/2]
		r.Spread = (c.rates[len(c.rates)-1] - c.rates[0]) / med
		r.AllocsPerStep = float64(c.alloc) / float64(c.calls)
		rows[i] = r
	}
	return rows, nil
}

// NNBatch returns a training batch of n positions for net: observations of
// positions from seeded random games, their legal masks, random legal target
// distributions and random value targets.
func NNBatch(net *nn.Net, n int, seed uint64) (nn.Batch, error) {
	g, err := env.NewGame(net.Rules())
	if err != nil {
		return nn.Batch{}, err
	}
	e := env.NewEncoder(g, net.Encoding())
	dim, p := net.InputDim(), net.Actions()
	b := nn.Batch{Rows: env.Rows{Obs: make([]float32, n*dim), Mask: make([]bool, n*p), Policy: make([]float32, n*p),
		Outcome: make([]float32, n)}, N: n}
	rng := rand.New(rand.NewPCG(seed, 0x6e6e))
	s := g.Start()
	for i := 0; i < n; i++ {
		for s.Terminal() || rng.IntN(8) == 0 {
			s = g.Start()
			for k := rng.IntN(40); k > 0 && !s.Terminal(); k-- {
				m := s.Legal()
				s.Play(m.Nth(rng.IntN(m.Count())))
			}
		}
		e.Encode(b.Obs[i*dim:], &s)
		m := s.Legal()
		var sum float32
		for a := 0; a < p; a++ {
			if m.Has(a) {
				b.Mask[i*p+a] = true
				b.Policy[i*p+a] = rng.Float32() + 0.01
				sum += b.Policy[i*p+a]
			}
		}
		for a := 0; a < p; a++ {
			b.Policy[i*p+a] /= sum
		}
		b.Outcome[i] = 2*rng.Float32() - 1
		s.Play(m.Nth(rng.IntN(m.Count())))
	}
	return b, nil
}
