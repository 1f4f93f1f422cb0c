package classic_test

import (
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/agenttest"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
)

// benchPresets are the boards of the speed targets.
var benchPresets = []string{"oware", "urim"}

// BenchmarkMCTS plays games between two MCTS agents with 1000 simulations
// per move and c = 2 (the settings of OpenSpiel's comparison, random
// rollouts); one op is one move, and sims/s is the rate on one core.
func BenchmarkMCTS(b *testing.B) {
	for _, name := range benchPresets {
		b.Run(name, func(b *testing.B) {
			g, _ := env.Preset(name)
			var players [2]agents.Agent
			for i := range players {
				m, err := classic.NewMCTS(classic.MCTSConfig{Sims: 1000, C: 2}, uint64(i))
				if err != nil {
					b.Fatal(err)
				}
				players[i] = m
			}
			s := g.Start()
			b.ReportAllocs()
			for b.Loop() {
				if s.Terminal() {
					s = g.Start()
					agents.Reset(players[0])
					agents.Reset(players[1])
				}
				a, err := players[s.ToMove()].Act(&s)
				if err != nil {
					b.Fatal(err)
				}
				s.Play(a)
			}
			b.ReportMetric(float64(b.N)*1000/b.Elapsed().Seconds(), "sims/s")
		})
	}
}

// BenchmarkRandomPlayout is the baseline of BenchmarkMCTS: one op is one
// random game from the start.
func BenchmarkRandomPlayout(b *testing.B) {
	for _, name := range benchPresets {
		b.Run(name, func(b *testing.B) {
			g, _ := env.Preset(name)
			rng := uint64(0x9E3779B97F4A7C15)
			b.ReportAllocs()
			for b.Loop() {
				s := g.Start()
				env.Playout(&s, &rng)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// BenchmarkAlphaBeta searches 20 fixed positions of random games to depth
// 10 with a fresh table (a Reset, not timed, before each search); one op is one search, and nodes/s is the rate.
func BenchmarkAlphaBeta(b *testing.B) {
	for _, name := range benchPresets {
		b.Run(name, func(b *testing.B) {
			g, _ := env.Preset(name)
			positions := agenttest.RandomPositions(g, 20, 1)
			ab := classic.NewAlphaBeta(classic.AlphaBetaConfig{Depth: 10, TTBits: 18})
			var nodes int64
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				s := &positions[i%len(positions)]
				i++
				b.StopTimer()
				ab.Reset()
				b.StartTimer()
				if _, err := ab.Act(s); err != nil {
					b.Fatal(err)
				}
				nodes += ab.LastSearch().Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}
