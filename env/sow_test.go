package env

import (
	"math/rand/v2"
	"testing"
)

// sowSeedBySeed is the rule as written: one seed at a time, skipping the
// origin and full pits. sowPits must agree with it on every board.
func sowSeedBySeed(g *Game, pits *[16]uint8, o int) int {
	n := pits[o]
	pits[o] = 0
	i := o
	for n > 0 {
		i = (i + 1) % g.n
		if i == o || pits[i] >= g.capacity {
			continue
		}
		pits[i]++
		n--
	}
	return i
}

// TestSowWordsMatchesSeedBySeed checks the word-wide sowing against the
// seed-by-seed rule on random boards of every preset and of small
// capacities (full pits on the way), laps included.
func TestSowWordsMatchesSeedBySeed(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rules := []Rules{Urim, Urim7, Urim4, Oware,
		{Name: "cap4", PitsPerRow: 6, SeedsPerPit: 3, Capacity: 4, Trigger: []int{2, 3}, Chain: []int{2, 3, 4}, GrandSlam: GrandSlamCapture},
		{Name: "cap5x7", PitsPerRow: 7, SeedsPerPit: 4, Capacity: 5, Trigger: []int{2, 3}, Chain: []int{2, 3}, GrandSlam: GrandSlamCapture},
		{Name: "big", PitsPerRow: 7, SeedsPerPit: 12, Trigger: []int{2, 3}, Chain: []int{2, 3}, GrandSlam: GrandSlamCapture}}
	for _, r := range rules {
		g, err := NewGame(r)
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		for range 20000 {
			// Deal the game's seeds at random, within the capacity.
			var pits [16]uint8
			for left := g.total; left > 0; {
				i := rng.IntN(g.n)
				if pits[i] < g.capacity {
					pits[i]++
					left--
				}
			}
			o := rng.IntN(g.n)
			if pits[o] == 0 {
				continue
			}
			want, got := pits, pits
			lw := sowSeedBySeed(g, &want, o)
			lg := sowPits(g, &got, o)
			if want != got || lw != lg {
				t.Fatalf("%s: sowing pit %d of %v: got %v, last %d; want %v, last %d", r.Name, o, pits[:g.n], got[:g.n], lg, want[:g.n], lw)
			}
		}
	}
}
