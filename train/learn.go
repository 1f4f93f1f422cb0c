package train

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"

	"github.com/urim-rl/urim/nn"
)

// learner trains the run's network between self-play phases. It keeps the
// optimizer state and step count across iterations; the learning rate of an
// iteration comes from the run's progress (see lrAt).
type learner struct {
	net   *nn.Net
	cfg   *Config
	opt   *nn.OptimizerState
	step  int64
	batch nn.Batch
}

func newLearner(net *nn.Net, cfg *Config, opt *nn.OptimizerState, step int64) (*learner, error) {
	b := cfg.Optimizer.BatchSize
	l := &learner{net: net, cfg: cfg, opt: opt, step: step, batch: nn.Batch{
		Obs: make([]float32, b*net.InputDim()), Mask: make([]float32, b*net.Actions()),
		Policy: make([]float32, b*net.Actions()), Value: make([]float32, b), N: b}}
	return l, nil
}

// checkpoint returns the network with the optimizer state and step.
func (l *learner) checkpoint() *nn.Checkpoint {
	return &nn.Checkpoint{Net: l.net, Step: l.step, Optimizer: l.opt}
}

// lrAt returns the learning rate of iteration it: the schedule runs over the
// planned iterations (or, with only a time budget, over the time spent).
func (l *learner) lrAt(progress float64) float64 {
	o := l.cfg.Optimizer
	progress = math.Min(math.Max(progress, 0), 1)
	switch o.Schedule {
	case "cosine":
		return o.LRMin + 0.5*(o.LR-o.LRMin)*(1+math.Cos(math.Pi*progress))
	case "step":
		switch {
		case progress >= 0.75:
			return o.LR * 0.01
		case progress >= 0.5:
			return o.LR * 0.1
		}
	}
	return o.LR
}

// newTraining returns a trainer resumed from ck: the place where train
// picks the network back-end (nn's pure-Go Trainer); the loops hold it as an
// nn.Training.
func newTraining(ck *nn.Checkpoint, tc nn.TrainConfig, maxBatch int) (nn.Training, error) {
	t, err := nn.NewTrainerFrom(ck, tc, maxBatch)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// trainStats are one iteration's mean losses and its last learning rate.
type trainStats struct{ policy, value, lr float64 }

// train takes steps AdamW steps on batches drawn from buf with the seed's
// generator, at the learning rate for progress (0 to 1 through the run).
func (l *learner) train(ctx context.Context, buf *Buffer, steps int, seed uint64, progress float64, bar func(done, total int)) (trainStats, error) {
	o := l.cfg.Optimizer
	threads := l.cfg.Workers
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	lr := l.lrAt(progress)
	tc := nn.TrainConfig{
		ValueWeight: o.ValueWeight,
		Optimizer:   nn.AdamW{WeightDecay: o.WeightDecay},
		Schedule:    nn.Schedule{Kind: nn.ScheduleConstant, LR: lr, Warmup: int64(o.WarmupSteps)},
		ClipNorm:    o.GradClip,
		Threads:     threads,
	}
	if o.ValueWeight == 0 {
		tc.ValueWeight = 1e-12 // nn reads 0 as 1
	}
	if err := buf.checkFinite(); err != nil {
		return trainStats{}, fmt.Errorf("train: the replay buffer's %w", err)
	}
	t, err := newTraining(l.checkpoint(), tc, o.BatchSize)
	if err != nil {
		return trainStats{}, err
	}
	defer t.Close()
	rng := rand.New(rand.NewPCG(seed, 0x6c6561726e))
	var st trainStats
	for i := 0; i < steps; i++ {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		buf.FillTrain(&l.batch, rng)
		s := t.Step(l.batch)
		st.policy += s.Policy
		st.value += s.Value
		st.lr = s.LR
		if bar != nil {
			bar(i+1, steps)
		}
	}
	if steps > 0 {
		st.policy /= float64(steps)
		st.value /= float64(steps)
	}
	ck := t.Checkpoint()
	l.opt, l.step = ck.Optimizer, ck.Step
	return st, nil
}
