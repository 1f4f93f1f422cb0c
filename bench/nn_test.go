package bench

import (
	"testing"
	"time"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/nn/kernels"
)

func TestRunNN(t *testing.T) {
	calls := 0
	o := NNOptions{Arch: nn.Arch{Width: 8, Depth: 1}, Rules: env.Oware, TrainBatches: []int{4}, PredictBatches: []int{1, 3},
		Threads: []int{1, 2}, Round: time.Millisecond, Rounds: 3, Progress: func() { calls++ }}
	rows, err := RunNN(o)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 6 || calls != NNMeasurements(o) || calls != 18 {
		t.Fatalf("%d rows, %d progress calls", len(rows), calls)
	}
	for _, r := range rows {
		if r.StepsPerSec <= 0 || r.PositionsPerSec != r.StepsPerSec*float64(r.Batch) || r.Backend != kernels.Backend() || r.Arch != "mlp 1x8" {
			t.Errorf("row %+v", r)
		}
	}
	if _, err := RunNN(NNOptions{Backends: []string{"tpu"}}); err == nil {
		t.Error("an unknown back-end is accepted")
	}
}

func TestNNBatchIsLegal(t *testing.T) {
	net, _ := nn.New(nn.Arch{Width: 4, Depth: 1}, env.Urim, env.EncodingThermometer, 1)
	b, err := NNBatch(net, 50, 3)
	if err != nil {
		t.Fatal(err)
	}
	p := net.Actions()
	for r := 0; r < b.N; r++ {
		var sum, legal float32
		for a := 0; a < p; a++ {
			if !b.Mask[r*p+a] && b.Policy[r*p+a] != 0 {
				t.Fatalf("row %d: target on an illegal action", r)
			}
			sum += b.Policy[r*p+a]
			if b.Mask[r*p+a] {
				legal++
			}
		}
		if legal == 0 || sum < 0.999 || sum > 1.001 || b.Outcome[r] < -1 || b.Outcome[r] > 1 {
			t.Fatalf("row %d: %v legal, target sums to %v, value %v", r, legal, sum, b.Outcome[r])
		}
	}
}
