package nn

import (
	"testing"

	"github.com/urim-rl/urim/env"
)

// predictCopy runs p on the batch and returns copies of its results.
func predictCopy(p *Predictor, obs []float32, batch int) (logits, values []float32) {
	l, v := p.Predict(obs, batch)
	return append([]float32(nil), l...), append([]float32(nil), v...)
}

// unpacked returns a predictor that reads the weights as stored, as the
// trainer's forward pass does.
func unpacked(n *Net, batch int) *Predictor {
	p := n.NewPredictor(batch)
	p.packs = nil
	return p
}

// TestPackedPredictSameBits checks that the packed weights give the
// results of the weights read in place, bit for bit, for every architecture
// and for batches on both sides of the packing threshold.
func TestPackedPredictSameBits(t *testing.T) {
	for _, arch := range archs() {
		n, err := New(arch, env.Urim, env.EncodingCompact, 3)
		if err != nil {
			t.Fatal(err)
		}
		const maxBatch = 300
		obs, _ := testObs(t, env.Urim, env.EncodingCompact, maxBatch, 4)
		p, q := n.NewPredictor(maxBatch), unpacked(n, maxBatch)
		for _, batch := range []int{1, 3, 4, 5, 128, 300} {
			l1, v1 := predictCopy(p, obs, batch)
			l2, v2 := predictCopy(q, obs, batch)
			if !equalFloats(l1, l2) || !equalFloats(v1, v2) {
				t.Fatalf("%v batch %d: packed weights give other results", arch, batch)
			}
		}
	}
}

// TestPredictorSeesNewWeights checks that a warm predictor repacks after
// each way of changing the weights: a training step, CopyWeightsFrom, and a
// write through Params followed by WeightsChanged.
func TestPredictorSeesNewWeights(t *testing.T) {
	const batch = 64
	n, _ := New(DefaultArch(), env.Urim, env.EncodingCompact, 1)
	obs, _ := testObs(t, env.Urim, env.EncodingCompact, batch, 2)
	p := n.NewPredictor(batch)
	check := func(what string) {
		t.Helper()
		l1, v1 := predictCopy(p, obs, batch)
		l2, v2 := predictCopy(unpacked(n, batch), obs, batch)
		if !equalFloats(l1, l2) || !equalFloats(v1, v2) {
			t.Fatalf("after %s: the warm predictor still uses the old weights", what)
		}
	}
	check("nothing")
	tr, err := NewTrainer(n, TrainConfig{}, batch)
	if err != nil {
		t.Fatal(err)
	}
	tr.Step(testBatch(t, env.Urim, env.EncodingCompact, batch, 5))
	check("a training step")
	other, _ := New(DefaultArch(), env.Urim, env.EncodingCompact, 9)
	if err := n.CopyWeightsFrom(other); err != nil {
		t.Fatal(err)
	}
	check("CopyWeightsFrom")
	for _, w := range n.Params() {
		for i := range w.W {
			w.W[i] *= 0.5
		}
	}
	n.WeightsChanged()
	check("WeightsChanged")
}

// TestPredictorMatchesTrainingForward checks that inference (packed
// weights, hidden activations in per-unit scratch) gives the trainer's
// forward pass (weights in place, every activation kept) bit for bit, for
// every architecture, over three row blocks, the last one partial.
func TestPredictorMatchesTrainingForward(t *testing.T) {
	const rows = 300
	for _, arch := range archs() {
		n, _ := New(arch, env.Urim, env.EncodingCompact, 6)
		b := testBatch(t, env.Urim, env.EncodingCompact, rows, 7)
		tr, err := NewTrainer(n, TrainConfig{}, rows)
		if err != nil {
			t.Fatal(err)
		}
		tr.Evaluate(b)
		l1, v1 := predictCopy(n.NewPredictor(rows), b.Obs, rows)
		g := &n.g
		if !equalFloats(l1, tr.ws.x[g.policy][:rows*n.Actions()]) || !equalFloats(v1, tr.ws.x[g.value][:rows]) {
			t.Fatalf("%v: the predictor and the trainer's forward pass differ", arch)
		}
		tr.Close()
	}
}
