package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// TestInputBounds: batch sizes, game counts and simulations over their
// bounds are refused before anything is allocated, naming the bound; one
// simulation a move is a legal benchmark.
func TestInputBounds(t *testing.T) {
	for _, o := range []NNOptions{
		{TrainBatches: []int{1 << 30}, PredictBatches: []int{1}},
		{TrainBatches: []int{4}, PredictBatches: []int{MaxNNBatch + 1}},
		{TrainBatches: []int{4}, PredictBatches: []int{0}},
	} {
		if _, err := RunNN(o); err == nil || !strings.Contains(err.Error(), fmt.Sprint(MaxNNBatch)) {
			t.Errorf("%v %v: %v, want the bound %d named", o.TrainBatches, o.PredictBatches, err, MaxNNBatch)
		}
	}
	net, err := nn.New(nn.Arch{Kind: nn.KindMLP, Width: 8, Depth: 1}, env.Urim, env.EncodingCompact, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AZ(AZOptions{Net: net, Games: 1 << 30, Moves: 1}); err == nil || !strings.Contains(err.Error(), fmt.Sprint(MaxAZGames)) {
		t.Errorf("2^30 games: %v, want the bound %d", err, MaxAZGames)
	}
	if _, err := AZ(AZOptions{Net: net, Games: 2, Sims: 1 << 30, Moves: 1}); err == nil || !strings.Contains(err.Error(), fmt.Sprint(agents.MaxSims)) {
		t.Errorf("2^30 sims: %v, want the bound %d", err, agents.MaxSims)
	}
	if _, err := AZ(AZOptions{Net: net, Games: 4, Sims: 1, Moves: 8}); err != nil {
		t.Errorf("one simulation a move: %v", err)
	}
}
