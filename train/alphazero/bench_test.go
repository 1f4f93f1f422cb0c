package alphazero

import (
	"context"
	"github.com/urim-rl/urim/train"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// BenchmarkSelfPlay plays one iteration of configs/quickstart.yaml's
// self-play (64 games in lock-step, 32 simulations, 8 leaves per tree, an
// untrained 3×64 MLP, two threads) and reports the training positions
// generated per second.
func BenchmarkSelfPlay(b *testing.B) {
	cfg, err := train.LoadConfig("../../configs/quickstart.yaml", nil)
	if err != nil {
		b.Fatal(err)
	}
	net, err := nn.New(nn.Arch{Kind: "mlp", Width: 64, Depth: 3}, env.Urim, env.EncodingCompact, 1)
	if err != nil {
		b.Fatal(err)
	}
	s, err := train.NewSession(cfg, net)
	if err != nil {
		b.Fatal(err)
	}
	g := s.Game
	positions := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		open := openings{g: s.Game, plies: SelfPlaySection.Of(&cfg).OpeningPlies, seed: cfg.Seed, it: i + 1}
		ls, err := newSearcher(s, 1, open, nil, uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		win := memoryWindow(s.Encoder.Dim(), g.PitsPerRow(), ReplaySection.Of(&cfg).Window)
		st, err := selfPlay(context.Background(), &cfg, g, s.Encoding, env.RewardMatchPoints, ls, open, win, nil, i+1, 0, nil)
		if err != nil {
			b.Fatal(err)
		}
		positions += st.positions
	}
	b.ReportMetric(float64(positions)/b.Elapsed().Seconds(), "positions/s")
}
