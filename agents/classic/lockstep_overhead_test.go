package classic

import (
	"testing"

	"github.com/urim-rl/urim/agents/neteval"
	"github.com/urim-rl/urim/env"
)

// freeNet answers every batch at no cost (zero logits, values from the
// store difference), so a benchmark on it measures the search alone.
type freeNet struct {
	dim, actions   int
	logits, values []float32
}

func (n *freeNet) MaxBatch() int { return len(n.values) }

func (n *freeNet) Predict(obs []float32, batch int) (logits, values []float32) {
	for b := range batch {
		n.values[b] = obs[b*n.dim+n.dim-5] - obs[b*n.dim+n.dim-4] // own minus opponent's store
	}
	return n.logits[:batch*n.actions], n.values[:batch]
}

// BenchmarkLockstepOverhead is the lock-step search of 256 self-play games
// on a network that costs nothing: the search's own time per simulation
// (descents, encoding, softmax, expansion, backup), which the network's
// forward pass must dwarf. One op is one move of every game.
func BenchmarkLockstepOverhead(b *testing.B) {
	g := env.MustGame(env.Urim)
	const games, sims = 256, 64
	dim := env.EncodingCompact.Dim(g)
	net := &freeNet{dim: dim, actions: g.PitsPerRow(), logits: make([]float32, games*g.PitsPerRow()), values: make([]float32, games)}
	l, err := NewLockstep(g, LockstepConfig{Games: games, Search: MCTSConfig{Sims: sims, Rule: PUCT}, NoiseAlpha: 0.3, NoiseFrac: 0.25, Moves: SelfPlayPolicy{Temperature: 1, TempPlies: 30}},
		func(rows int) LockstepEvaluator {
			return neteval.NewFor(net, g, env.EncodingCompact, g.PitsPerRow(), rows)
		}, 1)
	if err != nil {
		b.Fatal(err)
	}
	states := make([]env.State, games)
	jobs := make([]LockstepJob, games)
	out := make([]RootSearch, games)
	for i := range states {
		states[i] = g.Start()
		jobs[i] = LockstepJob{State: &states[i], Sims: sims, Noise: true}
	}
	b.ReportAllocs()
	for b.Loop() {
		l.Search(jobs, out)
		for i := range states {
			states[i].Play(l.Choose(&out[i], 1))
			if states[i].Terminal() {
				states[i] = g.Start()
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*games*sims), "ns/sim")
}
