package evaluate

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// game draws one result with expected score ExpectedScore(elo) and draws
// taking drawShare of the smaller of p and 1−p.
func game(rng *rand.Rand, elo, drawShare float64) float64 {
	p := ExpectedScore(elo)
	d := drawShare * 2 * min(p, 1-p)
	u := rng.Float64()
	switch {
	case u < p-d/2:
		return 1
	case u < p+d/2:
		return 0.5
	}
	return 0
}

// runSimulated runs the test on simulated games of true strength elo and
// returns the decision and the number of games.
func runSimulated(rng *rand.Rand, t SPRT, elo float64, paired bool) (Decision, int) {
	var w, d, l int
	var pairs [5]int
	for n := 1; n <= 100000; n++ {
		s := game(rng, elo, 0.3)
		var llr float64
		if paired {
			s += game(rng, elo, 0.3)
			pairs[int(2*s)]++
			llr = t.LLRPentanomial(pairs)
		} else {
			switch s {
			case 1:
				w++
			case 0.5:
				d++
			default:
				l++
			}
			llr = t.LLRTrinomial(w, d, l)
		}
		if dec := t.Decide(llr); dec != Continue {
			return dec, n
		}
	}
	return Continue, 100000
}

// TestSPRTErrorRates runs many tests on simulated games at Elo0 and at Elo1
// and checks the share of wrong decisions against alpha and beta.
func TestSPRTErrorRates(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 60, Alpha: 0.05, Beta: 0.05}
	runs := 300
	if testing.Short() {
		runs = 60
	}
	for _, paired := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(11, 0))
		wrongH1, wrongH0, games := 0, 0, 0
		for range runs {
			dec, n := runSimulated(rng, test, test.Elo0, paired)
			if dec != AcceptH0 {
				wrongH1++
			}
			games += n
			dec, n = runSimulated(rng, test, test.Elo1, paired)
			if dec != AcceptH1 {
				wrongH0++
			}
			games += n
		}
		a, b := float64(wrongH1)/float64(runs), float64(wrongH0)/float64(runs)
		t.Logf("paired %v: alpha %.3f, beta %.3f, %.0f games (or pairs) per test", paired, a, b, float64(games)/float64(2*runs))
		// The sd of a rate near 0.05 over 300 runs is about 0.013; allow
		// three of them above the nominal rate.
		if runs >= 300 && (a > 0.09 || b > 0.09) {
			t.Errorf("paired %v: error rates %.3f and %.3f, want at most about 0.05", paired, a, b)
		}
	}
}

// TestSPRTNormalApproximation compares the exact GSPRT ratio with its normal
// approximation N·(s1−s0)(2x̄−s0−s1)/(2σ²), which holds for small Elo bounds.
func TestSPRTNormalApproximation(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	w, d, l := 3100, 3900, 3000
	n := float64(w + d + l)
	x := (float64(w) + float64(d)/2) / n
	v := (float64(w)*(1-x)*(1-x) + float64(d)*(0.5-x)*(0.5-x) + float64(l)*x*x) / n
	s0, s1 := ExpectedScore(test.Elo0), ExpectedScore(test.Elo1)
	approx := n * (s1 - s0) * (2*x - s0 - s1) / (2 * v)
	exact := test.LLRTrinomial(w, d, l)
	if math.Abs(exact-approx) > 0.02*math.Abs(approx) {
		t.Errorf("LLR %.4f, normal approximation %.4f", exact, approx)
	}
	if test.LLRTrinomial(0, 0, 0) != 0 {
		t.Errorf("no games should give LLR 0")
	}
	if test.LLRTrinomial(60, 0, 40) <= 0 || test.LLRTrinomial(40, 0, 60) >= 0 {
		t.Errorf("the ratio should favour H1 when A scores 60%% and H0 when it scores 40%%")
	}
}

func TestSPRTBoundsAndCheck(t *testing.T) {
	lo, hi := SPRT{Alpha: 0.05, Beta: 0.05}.Bounds()
	if math.Abs(lo+2.944438979) > 1e-6 || math.Abs(hi-2.944438979) > 1e-6 {
		t.Errorf("bounds %g, %g, want ±log(19)", lo, hi)
	}
	for _, bad := range []SPRT{{Elo0: 5, Elo1: 5, Alpha: 0.05, Beta: 0.05}, {Elo1: 5, Alpha: 0, Beta: 0.05}, {Elo1: 5, Alpha: 0.05, Beta: 0.6}} {
		if bad.Check() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestRunSPRT(t *testing.T) {
	cfg := SPRTConfig{A: player("test-capture"), B: Player{Spec: "random"}, Test: SPRT{Elo0: 0, Elo1: 50},
		Setup: Setup{OpeningPlies: 2, Paired: true, Seed: 4}}
	one, two := cfg, cfg
	one.Workers, two.Workers = 1, 2
	var progress int
	two.Progress = func(SPRTProgress) { progress++ }
	a, err := RunSPRT(context.Background(), one)
	if err != nil {
		t.Fatal(err)
	}
	b, err := RunSPRT(context.Background(), two)
	if err != nil {
		t.Fatal(err)
	}
	if a.Decision != AcceptH1 {
		t.Errorf("capturing against random: %s", a)
	}
	if a.Stats != b.Stats || a.LLR != b.LLR || len(a.Games) != len(b.Games) {
		t.Errorf("1 and 2 workers disagree:\n%s\n%s", a, b)
	}
	if progress != len(b.Games)/2 || a.Pairs == nil {
		t.Errorf("%d progress calls for %d games (pairs %v)", progress, len(b.Games), a.Pairs)
	}
	t.Log(a)

	same := SPRTConfig{A: Player{Name: "r1", Spec: "random"}, B: Player{Name: "r2", Spec: "random"}, Test: SPRT{Elo0: 0, Elo1: 100}, Setup: Setup{Seed: 1}}
	r, err := RunSPRT(context.Background(), same)
	if err != nil {
		t.Fatal(err)
	}
	if r.Decision == AcceptH1 {
		t.Errorf("random against random accepted H1: %s", r)
	}
	t.Log(r)
	if _, err := RunSPRT(context.Background(), SPRTConfig{A: Player{Spec: "random"}, B: Player{Spec: "random"}, Test: SPRT{Elo1: 5}}); err == nil {
		t.Errorf("two players with one name accepted")
	}
}

// biasedGame is game with A's expected score moved by bias (the opening
// favouring one seat), kept inside (0, 1).
func biasedGame(rng *rand.Rand, elo, bias float64) float64 {
	p := min(max(ExpectedScore(elo)+bias, 0.02), 0.98)
	d := 0.3 * 2 * min(p, 1-p)
	switch u := rng.Float64(); {
	case u < p-d/2:
		return 1
	case u < p+d/2:
		return 0.5
	}
	return 0
}

// TestSPRTPentanomialOnCorrelatedPairs: when openings favour one seat, the
// two games of a pair (seats swapped) are anti-correlated and a pair's
// points vary less than two independent games'. The pentanomial test
// counts pairs, so its error rates stay at the nominal ones there too, by
// simulation: fishtest's reason for scoring paired games in five outcomes.
func TestSPRTPentanomialOnCorrelatedPairs(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 60, Alpha: 0.05, Beta: 0.05}
	runs := 300
	if testing.Short() {
		runs = 40
	}
	rng := rand.New(rand.NewPCG(12, 0))
	run := func(elo float64) (Decision, int) {
		var pairs [5]int
		for n := 1; n <= 50000; n++ {
			bias := 0.4 * (rng.Float64() - 0.5) // up to ±0.2 of score for South
			s := biasedGame(rng, elo, bias) + biasedGame(rng, elo, -bias)
			pairs[int(2*s)]++
			if dec := test.Decide(test.LLRPentanomial(pairs)); dec != Continue {
				return dec, n
			}
		}
		return Continue, 50000
	}
	wrongH1, wrongH0, total := 0, 0, 0
	for range runs {
		dec, n := run(test.Elo0)
		if dec != AcceptH0 {
			wrongH1++
		}
		total += n
		dec, n = run(test.Elo1)
		if dec != AcceptH1 {
			wrongH0++
		}
		total += n
	}
	a, b := float64(wrongH1)/float64(runs), float64(wrongH0)/float64(runs)
	t.Logf("correlated pairs: alpha %.3f, beta %.3f, %.0f pairs per test", a, b, float64(total)/float64(2*runs))
	// As in TestSPRTErrorRates: three standard deviations above 0.05.
	if runs >= 300 && (a > 0.09 || b > 0.09) {
		t.Errorf("error rates %.3f and %.3f, want at most about 0.05", a, b)
	}
}

// TestSPRTExpectedLeft: the games a test is expected to need come from
// the LLR's drift toward its bound, not from the maximum.
func TestSPRTExpectedLeft(t *testing.T) {
	for _, tc := range []struct {
		p    SPRTProgress
		want int
	}{
		{SPRTProgress{Games: 100, MaxGames: 20000, LLR: 1, Lower: -2.94, Upper: 2.94}, 194},
		{SPRTProgress{Games: 100, MaxGames: 20000, LLR: -2, Lower: -2.94, Upper: 2.94}, 47},
		{SPRTProgress{Games: 100, MaxGames: 120, LLR: 0.1, Lower: -2.94, Upper: 2.94}, 20},
		{SPRTProgress{Games: 0, MaxGames: 20000, Lower: -2.94, Upper: 2.94}, -1},
	} {
		if got := tc.p.ExpectedLeft(); got != tc.want {
			t.Errorf("%+v: %d, want %d", tc.p, got, tc.want)
		}
	}
}
