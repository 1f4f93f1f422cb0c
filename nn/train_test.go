package nn

import (
	"math"
	"testing"

	"github.com/urim-rl/urim/env"
)

// testBatch returns a batch of n real positions with random legal target
// distributions and random value targets.
func testBatch(t testing.TB, rules env.Rules, enc env.Encoding, n int, seed uint64) Batch {
	obs, mask := testObs(t, rules, enc, n, seed)
	p := rules.PitsPerRow
	b := Batch{Rows: env.Rows{Obs: obs, Mask: make([]bool, n*p), Policy: make([]float32, n*p), Outcome: make([]float32, n)}, N: n}
	for i, m := range mask {
		b.Mask[i] = m != 0
	}
	x := seed*2654435761 + 1
	next := func() float32 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return float32(x%10000) / 10000
	}
	for r := 0; r < n; r++ {
		var sum float32
		for a := 0; a < p; a++ {
			if mask[r*p+a] != 0 {
				b.Policy[r*p+a] = next() + 0.05
				sum += b.Policy[r*p+a]
			}
		}
		for a := 0; a < p; a++ {
			b.Policy[r*p+a] /= sum
		}
		b.Outcome[r] = 2*next() - 1
	}
	return b
}

// TestGradients checks every parameter's gradient, for every layer of every
// architecture (linear, ReLU, layer norm, residual blocks, both heads), and
// through them the loss, against central finite differences of the loss.
func TestGradients(t *testing.T) {
	for _, arch := range []Arch{
		{Kind: KindMLP, Width: 8, Depth: 2},
		{Kind: KindMLP, Width: 8, Depth: 2, LayerNorm: true},
		{Kind: KindResMLP, Width: 8, Depth: 2},
		{Kind: KindResMLP, Width: 8, Depth: 1, LayerNorm: true},
	} {
		t.Run(arch.String(), func(t *testing.T) {
			n, err := New(arch, env.Urim, env.EncodingCompact, 11)
			if err != nil {
				t.Fatal(err)
			}
			// Non-zero biases and gains, so that every term is exercised.
			for i, p := range n.params {
				if n.g.specs[i].init == initZero || n.g.specs[i].init == initOne {
					for j := range p.W {
						p.W[j] += 0.1 * float32(math.Sin(float64(3*j+i)))
					}
				}
			}
			b := testBatch(t, env.Urim, env.EncodingCompact, 200, 5) // two row blocks, the last one partial (seeds 3 and 4 put a ReLU kink within h of a weight)
			tr, _ := NewTrainer(n, TrainConfig{ValueWeight: 0.7}, 200)
			tr.Gradients(b)
			for i, p := range n.params {
				g := tr.Grads()[i].W
				for _, j := range sampleIndices(len(p.W)) {
					old := p.W[j]
					const h = 1e-3 // small enough that few rows cross a ReLU kink, large enough for float32
					p.W[j] = old + h
					up := tr.Evaluate(b).Loss
					p.W[j] = old - h
					down := tr.Evaluate(b).Loss
					p.W[j] = old
					fd := (up - down) / (2 * h)
					if d := math.Abs(fd - float64(g[j])); d > 1e-3+3e-2*math.Abs(fd) {
						t.Errorf("%s[%d]: gradient %.6g, finite difference %.6g", p.Name, j, g[j], fd)
					}
				}
			}
		})
	}
}

// sampleIndices picks up to 12 indices spread over n.
func sampleIndices(n int) []int {
	if n <= 12 {
		s := make([]int, n)
		for i := range s {
			s[i] = i
		}
		return s
	}
	var s []int
	for i := 0; i < 12; i++ {
		s = append(s, (i*7919)%n)
	}
	return s
}

// TestLossGradient checks the loss's gradient with respect to logits and
// values in float64 finite differences, with illegal actions and a finished
// row among the examples.
func TestLossGradient(t *testing.T) {
	const rows, actions = 3, 4
	logits := []float32{0.5, -1, 2, 0.1, 1, 1, 1, 1, 3, -2, 0, 0.5}
	mask := []float32{1, 0, 1, 1, 0, 0, 0, 0, 1, 1, 1, 0}
	target := []float32{0.2, 0.3, 0.5, 0, 0, 0, 0, 0, 0.25, 0.25, 0.5, 0}
	values := []float32{0.3, -0.5, 0.9}
	tv := []float32{1, -1, 0}
	dl := make([]float32, rows*actions)
	dv := make([]float32, rows)
	loss := func() float64 {
		return policyValueLoss(logits, values, mask, target, tv, rows, actions, 1.5, 0.5, make([]float32, rows*actions), make([]float32, rows)).Loss
	}
	st := policyValueLoss(logits, values, mask, target, tv, rows, actions, 1.5, 0.5, dl, dv)
	for i := range logits {
		if mask[i] == 0 && dl[i] != 0 {
			t.Fatalf("illegal logit %d has gradient %v", i, dl[i])
		}
		old := logits[i]
		logits[i] = old + 1e-3
		up := loss()
		logits[i] = old - 1e-3
		down := loss()
		logits[i] = old
		if fd := (up - down) / 2e-3; math.Abs(fd-float64(dl[i])) > 1e-3 {
			t.Errorf("logit %d: gradient %v, finite difference %v", i, dl[i], fd)
		}
	}
	for i := range values {
		old := values[i]
		values[i] = old + 1e-3
		up := loss()
		values[i] = old - 1e-3
		down := loss()
		values[i] = old
		if fd := (up - down) / 2e-3; math.Abs(fd-float64(dv[i])) > 1e-3 {
			t.Errorf("value %d: gradient %v, finite difference %v", i, dv[i], fd)
		}
	}
	// The target's mass on the illegal action 1 of row 0 is ignored: KL is
	// cross-entropy minus the entropy of the legal part of the target.
	if st.KL < -1e-12 || st.Entropy <= 0 {
		t.Fatalf("KL %v, entropy %v", st.KL, st.Entropy)
	}
}

// TestIllegalActionsGetNoProbability trains towards a target that puts mass
// on illegal actions and checks that nothing moves their logits.
func TestIllegalActionsGetNoProbability(t *testing.T) {
	logits := []float32{1, 2, 3}
	mask := []float32{1, 0, 1}
	target := []float32{0, 1, 0}
	dl := make([]float32, 3)
	st := policyValueLoss(logits, []float32{0}, mask, target, []float32{0}, 1, 3, 1, 1, dl, make([]float32, 1))
	if dl[1] != 0 || math.IsNaN(st.Loss) {
		t.Fatalf("illegal action gradient %v, loss %v", dl[1], st.Loss)
	}
}

func TestOverfitsTinyDataset(t *testing.T) {
	for _, arch := range []Arch{{Kind: KindMLP, Width: 64, Depth: 2}, {Kind: KindResMLP, Width: 32, Depth: 2, LayerNorm: true}} {
		n, _ := New(arch, env.Urim, env.EncodingCompact, 2)
		b := testBatch(t, env.Urim, env.EncodingCompact, 24, 9)
		tr, err := NewTrainer(n, TrainConfig{Schedule: Schedule{LR: 3e-3}}, 24)
		if err != nil {
			t.Fatal(err)
		}
		first := tr.Evaluate(b)
		var st StepStats
		for i := 0; i < 600; i++ {
			st = tr.Step(b)
		}
		// KL 0 and MSE 0 are a perfect fit; a few hundredths is memorised.
		if st.KL > 0.05 || st.Value > 0.01 {
			t.Fatalf("%v: after 600 steps KL %.4f (from %.4f), value MSE %.4f (from %.4f)", arch, st.KL, first.KL, st.Value, first.Value)
		}
	}
}

// TestThreadsBitIdentical trains the same network on 1, 2 and 4 threads and
// demands identical weights, bit for bit.
func TestThreadsBitIdentical(t *testing.T) {
	// 300 rows make three row blocks, the last one partial (two under
	// OpenBLAS); width 160 makes
	// three blocks of weight rows, the last one partial.
	for _, arch := range []Arch{DefaultArch(), {Kind: KindResMLP, Width: 160, Depth: 2, LayerNorm: true}} {
		var ref []float32
		for _, threads := range []int{1, 2, 4} {
			n, _ := New(arch, env.Urim, env.EncodingCompact, 4)
			tr, _ := NewTrainer(n, TrainConfig{Threads: threads, ClipNorm: 1, Optimizer: AdamW{WeightDecay: 1e-4}}, 300)
			for s := uint64(0); s < 3; s++ {
				tr.Step(testBatch(t, env.Urim, env.EncodingCompact, 300, s))
			}
			p := n.NewPredictor(300)
			p.SetThreads(threads)
			obs, _ := testObs(t, env.Urim, env.EncodingCompact, 300, 5)
			logits, values := p.Predict(obs, 300)
			got := append(append(append([]float32(nil), n.flat...), logits...), values...)
			tr.Close()
			if ref == nil {
				ref = got
			} else if !equalFloats(ref, got) {
				t.Fatalf("%v: %d threads give other weights or outputs than 1 thread", arch, threads)
			}
		}
	}
}

func TestStepAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	for _, threads := range []int{1, 2} {
		n, _ := New(Arch{Kind: KindResMLP, Width: 64, Depth: 1, LayerNorm: true}, env.Urim, env.EncodingCompact, 1)
		tr, _ := NewTrainer(n, TrainConfig{Threads: threads, ClipNorm: 1}, 130)
		b := testBatch(t, env.Urim, env.EncodingCompact, 130, 1)
		tr.Step(b)
		if a := testing.AllocsPerRun(5, func() { tr.Step(b) }); a != 0 {
			t.Fatalf("%d threads: Step allocates %v times", threads, a)
		}
		tr.Close()
	}
}

func TestSchedules(t *testing.T) {
	for _, c := range []struct {
		s    Schedule
		step int64
		want float64
	}{
		{Schedule{}, 5, 1e-3},
		{Schedule{LR: 0.1, Warmup: 10}, 0, 0.01},
		{Schedule{LR: 0.1, Warmup: 10}, 9, 0.1},
		{Schedule{Kind: ScheduleStep, LR: 1, Every: 10, Gamma: 0.5}, 25, 0.25},
		{Schedule{Kind: ScheduleCosine, LR: 1, MinLR: 0.1, Steps: 100, Warmup: 10}, 10, 1},
		{Schedule{Kind: ScheduleCosine, LR: 1, MinLR: 0.1, Steps: 100, Warmup: 10}, 60, 0.55},
		{Schedule{Kind: ScheduleCosine, LR: 1, MinLR: 0.1, Steps: 100, Warmup: 10}, 500, 0.1},
		{Schedule{Kind: ScheduleMilestones, LR: 1, Gamma: 0.1, Milestones: []int64{50, 75}}, 49, 1},
		{Schedule{Kind: ScheduleMilestones, LR: 1, Gamma: 0.1, Milestones: []int64{50, 75}}, 50, 0.1},
		{Schedule{Kind: ScheduleMilestones, LR: 1, Gamma: 0.1, Milestones: []int64{50, 75}}, 99, 0.01},
	} {
		if got := c.s.At(c.step); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%+v at %d: %v, want %v", c.s, c.step, got, c.want)
		}
	}
	for _, bad := range []Schedule{{Kind: "linear"}, {Kind: ScheduleStep}, {Kind: ScheduleCosine}, {LR: math.NaN()}, {Warmup: -1},
		{Kind: ScheduleMilestones, Gamma: 0.1, Milestones: []int64{5, 5}}, {Kind: ScheduleMilestones, Milestones: []int64{5}}} {
		if bad.Validate() == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

func TestClippingBoundsTheUpdate(t *testing.T) {
	n, _ := New(Arch{Width: 16, Depth: 1}, env.Urim, env.EncodingCompact, 1)
	b := testBatch(t, env.Urim, env.EncodingCompact, 16, 1)
	tr, _ := NewTrainer(n, TrainConfig{ClipNorm: 1e-3}, 16)
	st := tr.Step(b)
	if st.GradNorm <= 1e-3 {
		t.Fatalf("gradient norm %v is already below the clip norm", st.GradNorm)
	}
	var sq float64
	for _, g := range tr.grad {
		sq += float64(g) * float64(g)
	}
	if got := math.Sqrt(sq); math.Abs(got-1e-3) > 1e-8 {
		t.Fatalf("norm %v clipped to %v, want 1e-3", st.GradNorm, got)
	}
}
