package env

import "testing"

// BenchmarkPlayout plays random games to the end; b.N counts moves, so ns/op
// is the time per move.
func BenchmarkPlayout(b *testing.B) {
	for _, name := range PresetNames() {
		b.Run(name, func(b *testing.B) {
			g, _ := Preset(name)
			rng := uint64(0x9E3779B97F4A7C15)
			b.ReportAllocs()
			moves, games := 0, 0
			for moves < b.N {
				s := g.Start()
				moves += Playout(&s, &rng)
				games++
			}
			b.ReportMetric(float64(moves)/float64(games), "moves/game")
		})
	}
}
