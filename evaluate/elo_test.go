package evaluate

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// simulate plays games of a round robin between players of the given true
// ratings: each game is a win, draw or loss with expected score
// ExpectedScore(Ri−Rj); drawShare of the smaller of p and 1−p becomes draws
// (so the expected score is unchanged).
func simulate(rng *rand.Rand, elo []float64, games int, drawShare float64) []Outcome {
	var out []Outcome
	for i := range elo {
		for j := i + 1; j < len(elo); j++ {
			p := ExpectedScore(elo[i] - elo[j])
			d := drawShare * 2 * min(p, 1-p)
			for range games {
				u := rng.Float64()
				s := 0.0
				switch {
				case u < p-d/2:
					s = 1
				case u < p+d/2:
					s = 0.5
				}
				out = append(out, Outcome{I: i, J: j, Score: s})
			}
		}
	}
	return out
}

var names5 = []string{"a", "b", "c", "d", "e"}

// TestFitEloCoverage checks that the 95% intervals hold the true ratings
// about 95% of the time, over many simulated tournaments.
func TestFitEloCoverage(t *testing.T) {
	truth := []float64{0, 100, 250, 400, -150}
	reps := 200
	if testing.Short() {
		reps = 60
	}
	for _, tc := range []struct {
		draws  float64
		lo, hi float64 // accepted coverage
	}{
		// 4 free ratings × 200 runs: the binomial sd of the coverage is
		// about 0.8%, so 0.92–0.98 is roughly ±4 sd around 0.95.
		{draws: 0, lo: 0.92, hi: 0.98},
		// Draws make the half-win model overstate the variance, so the
		// intervals are conservative: only the lower bound matters.
		{draws: 0.4, lo: 0.92, hi: 1},
	} {
		rng := rand.New(rand.NewPCG(1, uint64(100*tc.draws)))
		covered, total := 0, 0
		bias := make([]float64, len(truth))
		for range reps {
			r, err := FitElo(names5, simulate(rng, truth, 200, tc.draws), EloOptions{PriorDraws: -1})
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i < len(truth); i++ {
				p := r.Players[i]
				if p.Lo <= truth[i] && truth[i] <= p.Hi {
					covered++
				}
				total++
				bias[i] += (p.Elo - truth[i]) / float64(reps)
			}
		}
		rate := float64(covered) / float64(total)
		t.Logf("draw share %.1f: coverage %.3f, mean errors %.1f", tc.draws, rate, bias)
		if reps >= 200 && (rate < tc.lo || rate > tc.hi) {
			t.Errorf("draw share %.1f: 95%% intervals covered the truth %.3f of the time, want %.2f–%.2f", tc.draws, rate, tc.lo, tc.hi)
		}
		for i, b := range bias {
			if math.Abs(b) > 10 {
				t.Errorf("draw share %.1f: player %d is off by %.1f Elo on average", tc.draws, i, b)
			}
		}
	}
}

func TestFitEloAnchor(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	games := simulate(rng, []float64{0, 100, 250, 400, -150}, 100, 0.2)
	base, err := FitElo(names5, games, EloOptions{})
	if err != nil {
		t.Fatal(err)
	}
	moved, err := FitElo(names5, games, EloOptions{Anchor: 2, AnchorElo: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if base.Players[0].Elo != 0 || base.Players[0].SE != 0 || moved.Players[2].Elo != 1000 || moved.Players[2].SE != 0 {
		t.Fatalf("anchors not held: %+v %+v", base.Players[0], moved.Players[2])
	}
	if moved.Anchor != "c" {
		t.Errorf("anchor name %q", moved.Anchor)
	}
	for i := range names5 {
		d0 := base.Players[i].Elo - base.Players[2].Elo
		d1 := moved.Players[i].Elo - moved.Players[2].Elo
		if math.Abs(d0-d1) > 1e-6 {
			t.Errorf("player %d: difference to c is %.6f with one anchor, %.6f with the other", i, d0, d1)
		}
		// The superiority of two players does not depend on the anchor.
		for j := range names5 {
			if math.Abs(base.Superiority[i][j]-moved.Superiority[i][j]) > 1e-6 {
				t.Errorf("P(%d>%d) is %.6f vs %.6f", i, j, base.Superiority[i][j], moved.Superiority[i][j])
			}
			if s := base.Superiority[i][j] + base.Superiority[j][i]; math.Abs(s-1) > 1e-9 {
				t.Errorf("P(%d>%d)+P(%d>%d) = %g", i, j, j, i, s)
			}
		}
	}
	if base.Superiority[3][1] < 0.99 || base.Superiority[0][4] < 0.9 {
		t.Errorf("superiority too low: d>b %.3f, a>e %.3f", base.Superiority[3][1], base.Superiority[0][4])
	}
}

func TestFitEloDraws(t *testing.T) {
	var games []Outcome
	for range 40 {
		games = append(games, Outcome{0, 1, 0.5})
	}
	for range 30 {
		games = append(games, Outcome{0, 1, 1}, Outcome{1, 0, 1})
	}
	r, err := FitElo([]string{"x", "y"}, games, EloOptions{PriorDraws: -1})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Players[1].Elo) > 1e-9 || math.Abs(r.Superiority[0][1]-0.5) > 1e-9 {
		t.Errorf("even score: Elo %g, P(x>y) %g", r.Players[1].Elo, r.Superiority[0][1])
	}
	// 3 draws and 1 win score 5/8 = 0.625 for x: 400·log10(5/3) ≈ 88.7 Elo.
	games = []Outcome{{0, 1, 0.5}, {1, 0, 0.5}, {0, 1, 0.5}, {0, 1, 1}}
	games = append(games, games...)
	r, err = FitElo([]string{"x", "y"}, games, EloOptions{PriorDraws: -1})
	if err != nil {
		t.Fatal(err)
	}
	if want := -400 * math.Log10(5.0/3); math.Abs(r.Players[1].Elo-want) > 1e-6 {
		t.Errorf("y rated %.4f, want %.4f", r.Players[1].Elo, want)
	}
	if r.Players[0].Score != 0.625 || r.Players[0].Games != 8 {
		t.Errorf("x: score %g over %d games", r.Players[0].Score, r.Players[0].Games)
	}
}

func TestFitEloSeparationAndGaps(t *testing.T) {
	games := []Outcome{{0, 1, 1}, {0, 1, 1}, {1, 0, 0}}
	if _, err := FitElo([]string{"x", "y"}, games, EloOptions{PriorDraws: -1}); !errors.Is(err, ErrSeparated) {
		t.Errorf("perfect score without prior: error %v, want ErrSeparated", err)
	}
	r, err := FitElo([]string{"x", "y"}, games, EloOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// With one prior draw: 3.5 points of 4 for x, 400·log10(7) ≈ 338 Elo.
	if want := -400 * math.Log10(7); math.Abs(r.Players[1].Elo-want) > 1e-6 {
		t.Errorf("y rated %.3f with the prior, want %.3f", r.Players[1].Elo, want)
	}
	_, err = FitElo([]string{"x", "y", "z", "w"}, []Outcome{{0, 1, 1}, {2, 3, 0}}, EloOptions{})
	if !errors.Is(err, ErrDisconnected) {
		t.Errorf("two islands: error %v, want ErrDisconnected", err)
	}
	if _, err := FitElo([]string{"x", "y"}, []Outcome{{0, 0, 1}}, EloOptions{}); err == nil {
		t.Errorf("a game against oneself was accepted")
	}
	if _, err := FitElo([]string{"x", "y"}, []Outcome{{0, 1, 2}}, EloOptions{}); err == nil {
		t.Errorf("a score of 2 was accepted")
	}
}

func TestEloFromScore(t *testing.T) {
	for _, elo := range []float64{-500, -35, 0, 1, 200, 800} {
		if got := EloFromScore(ExpectedScore(elo)); math.Abs(got-elo) > 1e-9 {
			t.Errorf("round trip of %g gives %g", elo, got)
		}
	}
	if !math.IsInf(EloFromScore(1), 1) || !math.IsInf(EloFromScore(0), -1) {
		t.Errorf("perfect scores should give infinite differences")
	}
}
