package evaluate

import (
	"math"
	"testing"
)

func TestPairCountsMatchPoints(t *testing.T) {
	rec := func(south, north string, stores [2]int) Record {
		mp := [2]int{}
		for p := range 2 {
			switch {
			case 4*stores[p] >= 3*36:
				mp[p] = 2
			case 2*stores[p] > 36:
				mp[p] = 1
			}
		}
		return Record{Players: [2]string{south, north}, Stores: stores, MatchPoints: mp, Plies: 10}
	}
	games := []Record{
		rec("a", "b", [2]int{30, 6}),  // a +2
		rec("b", "a", [2]int{10, 26}), // a +1
		rec("a", "b", [2]int{18, 18}), // draw
		rec("b", "a", [2]int{20, 16}), // a −1
		rec("a", "b", [2]int{0, 36}),  // a −2
		rec("a", "c", [2]int{36, 0}),  // another pairing: skipped
	}
	ps := Pair("a", "b", games)
	if ps.Games != 5 || ps.Wins != 2 || ps.Draws != 1 || ps.Losses != 2 || ps.MPCounts != [5]int{1, 1, 1, 1, 1} {
		t.Fatalf("%+v", ps)
	}
	if ps.AvgMP != 3.0/5 || ps.AvgMPB != 3.0/5 || ps.Score != 0.5 || ps.AvgPlies != 10 {
		t.Errorf("averages %+v", ps)
	}
	// South won games 1 and 4 (a and b), drew game 3, lost 2 and 5.
	if ps.SouthWins != 2 || ps.SouthDraws != 1 || ps.SouthLosses != 2 {
		t.Errorf("by seat %+v", ps)
	}
	back := Pair("b", "a", games)
	if back.MPCounts != [5]int{1, 1, 1, 1, 1} || back.Wins != ps.Losses {
		t.Errorf("from b's side %+v", back)
	}
}

func TestEloDiffIntervals(t *testing.T) {
	even := PairStats{Games: 100, Wins: 40, Draws: 20, Losses: 40, Score: 0.5}
	elo, se, lo, hi := even.EloDiff()
	if elo != 0 || math.Abs(lo+hi) > 1e-9 || lo > -50 || se <= 0 {
		t.Errorf("even score: %g ± %g [%g, %g]", elo, se, lo, hi)
	}
	// Four wins out of four: the difference is infinite, but Wilson's lower
	// bound, 4/(4+1.96²) ≈ 0.51 in score, is a finite +7 Elo.
	perfect := PairStats{Games: 4, Wins: 4, Score: 1}
	elo, se, lo, hi = perfect.EloDiff()
	if !math.IsInf(elo, 1) || !math.IsInf(se, 1) || !math.IsInf(hi, 1) || lo < 0 || lo > 20 {
		t.Errorf("perfect score: %g ± %g [%g, %g]", elo, se, lo, hi)
	}
}
