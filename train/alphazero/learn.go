package alphazero

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

// learner trains the session's network between self-play phases; the
// optimizer state and step count live in the session, across iterations.
type learner struct {
	s     *train.Session
	batch nn.Batch
	table *tableSampler // training.tablebase_sample, or nil
}

func newLearner(s *train.Session) *learner {
	b, net := s.Config.Optimizer.BatchSize, s.Net
	l := &learner{s: s, batch: nn.Batch{Rows: env.Rows{
		Obs: make([]float32, b*net.InputDim()), Mask: make([]bool, b*net.Actions()),
		Policy: make([]float32, b*net.Actions()), Outcome: make([]float32, b)}, N: b}}
	if TrainingSection.Of(s.Config).ScoreWeight > 0 {
		l.batch.Margin = make([]float32, b)
	}
	return l
}

// trainStats are one iteration's mean losses (score: the score head's,
// 0 without one) and its last learning rate.
type trainStats struct{ policy, value, score, lr float64 }

// train takes steps AdamW steps at learning rate lr on batches drawn from
// buf with the seed's generator.
func (l *learner) train(ctx context.Context, buf *Buffer, steps int, seed uint64, lr float64, bar func(done, total int)) (trainStats, error) {
	o := l.s.Config.Optimizer
	tc := nn.TrainConfig{
		ValueWeight: o.ValueWeight,
		ScoreWeight: TrainingSection.Of(l.s.Config).ScoreWeight,
		Optimizer:   nn.AdamW{WeightDecay: o.WeightDecay},
		Schedule:    nn.Schedule{Kind: nn.ScheduleConstant, LR: lr, Warmup: int64(o.WarmupSteps)},
		ClipNorm:    o.GradClip,
		Threads:     l.s.Threads(),
	}
	if o.ValueWeight == 0 {
		tc.ValueWeight = 1e-12 // nn reads 0 as 1
	}
	t, err := l.s.NewTraining(tc, o.BatchSize)
	if err != nil {
		return trainStats{}, err
	}
	defer t.Close()
	if err := buf.checkFinite(); err != nil {
		return trainStats{}, fmt.Errorf("train: the replay buffer's %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6c6561726e))
	var st trainStats
	for i := 0; i < steps; i++ {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		l.fill(buf, rng)
		s := t.Step(l.batch)
		st.policy += s.Policy
		st.value += s.Value
		st.score += s.Score
		st.lr = s.LR
		if bar != nil {
			bar(i+1, steps)
		}
	}
	if steps > 0 {
		st.policy /= float64(steps)
		st.value /= float64(steps)
		st.score /= float64(steps)
	}
	ck := t.Checkpoint()
	l.s.Optimizer, l.s.Step = ck.Optimizer, ck.Step
	return st, nil
}

// fill draws the next training batch: rows from the replay window, and with
// training.tablebase_sample its share of the rows, last, from the table.
func (l *learner) fill(buf *Buffer, rng *rand.Rand) {
	m := l.table.rows(l.batch.N)
	window := l.batch
	window.N -= m
	if window.N > 0 {
		buf.FillTrain(&window, rng)
	}
	if m > 0 {
		l.table.fill(&l.batch, window.N, rng)
	}
}
