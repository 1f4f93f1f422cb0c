package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/urim-rl/urim/env"
)

// TestStepLossMatchesStep: a caller's loss that is the built-in one (the
// masked cross-entropy plus the squared value error) gives the same
// gradients and the same update as Step.
func TestStepLossMatchesStep(t *testing.T) {
	rules, _ := env.PresetRules("urim4")
	net, err := New(Arch{Kind: KindResMLP, Width: 16, Depth: 1, LayerNorm: true}, rules, env.EncodingCompact, 7)
	if err != nil {
		t.Fatal(err)
	}
	const rows = 9
	in, a := net.InputDim(), net.Actions()
	rng := rand.New(rand.NewPCG(1, 1))
	b := Batch{Rows: env.Rows{Obs: make([]float32, rows*in), Mask: make([]bool, rows*a), Policy: make([]float32, rows*a), Outcome: make([]float32, rows)}, N: rows}
	for i := range b.Obs {
		b.Obs[i] = float32(rng.Float64())
	}
	for r := 0; r < rows; r++ {
		for j := 0; j < a; j++ {
			if j == r%a || rng.IntN(2) == 0 {
				b.Mask[r*a+j] = true
				b.Policy[r*a+j] = float32(rng.Float64())
			}
		}
		b.Outcome[r] = float32(rng.Float64()*2 - 1)
	}
	cfg := TrainConfig{ClipNorm: 0.5}
	t1, _ := NewTrainer(net.Clone(), cfg, rows)
	t2, _ := NewTrainer(net.Clone(), cfg, rows)
	defer t1.Close()
	defer t2.Close()
	// A Predictor made before the step must see the step's weights.
	pred := t2.Net().NewPredictor(rows)
	pred.Predict(b.Obs, rows)
	want := t1.Step(b)
	got := t2.StepLoss(b.Obs, rows, func(logits, values []float32, rows, actions int, dl, dv []float32) float64 {
		return policyValueLoss(logits, values, b.Mask, b.Policy, b.Outcome, rows, actions, 1, 1, dl, dv).Loss
	})
	if math.Abs(got.Loss-want.Loss) > 1e-12 || got.GradNorm != want.GradNorm || got.Step != want.Step || got.LR != want.LR {
		t.Errorf("StepLoss %+v, Step %+v", got, want)
	}
	p1, p2 := t1.Net().Params(), t2.Net().Params()
	for i := range p1 {
		for j := range p1[i].W {
			if p1[i].W[j] != p2[i].W[j] {
				t.Fatalf("%s[%d]: %v after StepLoss, %v after Step", p1[i].Name, j, p2[i].W[j], p1[i].W[j])
			}
		}
	}
	gotL, _ := pred.Predict(b.Obs, rows)
	wantL, _ := t1.Net().NewPredictor(rows).Predict(b.Obs, rows)
	for j := range wantL {
		if gotL[j] != wantL[j] {
			t.Fatalf("logit %d: %v from a Predictor made before StepLoss, %v from a new one", j, gotL[j], wantL[j])
		}
	}
}
