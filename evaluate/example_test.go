package evaluate_test

import (
	"context"
	"fmt"

	"github.com/urim-rl/urim/evaluate"
)

// A player that scores 75 wins in 100 games is 400·log10(3) ≈ 191 Elo
// stronger; the Fisher information 100·0.75·0.25 gives a standard error of
// 173.7/√18.75 ≈ 40 Elo.
func ExampleFitElo() {
	var games []evaluate.Outcome
	for k := range 100 {
		score := 0.0
		if k < 75 {
			score = 1
		}
		games = append(games, evaluate.Outcome{I: 1, J: 0, Score: score})
	}
	r, err := evaluate.FitElo([]string{"random", "candidate"}, games, evaluate.EloOptions{PriorDraws: -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := r.Players[1]
	fmt.Printf("%s: %.1f ± %.1f Elo, 95%% [%.1f, %.1f]\n", c.Name, c.Elo, c.SE, c.Lo, c.Hi)
	fmt.Printf("P(candidate stronger) = %.5f\n", r.Superiority[1][0])
	// Output:
	// candidate: 190.8 ± 40.1 Elo, 95% [112.2, 269.5]
	// P(candidate stronger) = 1.00000
}

func ExampleExpectedScore() {
	fmt.Printf("%.3f %.3f %.1f\n", evaluate.ExpectedScore(100), evaluate.ExpectedScore(-400), evaluate.EloFromScore(0.75))
	// Output: 0.640 0.091 190.8
}

// After 950 games scoring 52.6%, the test of 0 against 10 Elo has not yet
// decided: the ratio lies between the bounds ±log(19).
func ExampleSPRT() {
	test := evaluate.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	lo, hi := test.Bounds()
	llr := test.LLRTrinomial(300, 400, 250)
	fmt.Printf("LLR %.3f in (%.3f, %.3f): %s\n", llr, lo, hi, test.Decide(llr))
	llr = test.LLRTrinomial(600, 800, 500)
	fmt.Printf("LLR %.3f after twice the games: %s\n", llr, test.Decide(llr))
	// Output:
	// LLR 1.807 in (-2.944, 2.944): continue
	// LLR 3.615 after twice the games: H1
}

// A tournament between two random players: games, results and match points
// from the first player's side.
func ExampleRunTournament() {
	cfg := evaluate.Config{
		Agents: []evaluate.Player{{Name: "alice", Spec: "random"}, {Name: "bob", Spec: "random"}},
		Games:  40,
		Setup:  evaluate.Setup{OpeningPlies: 2, Paired: true, Seed: 1},
	}
	res, err := evaluate.RunTournament(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	p := res.Pairs[0]
	fmt.Printf("%s vs %s: %d games, +%d =%d -%d\n", p.A, p.B, p.Games, p.Wins, p.Draws, p.Losses)
	fmt.Printf("match points +2..-2: %v, average %.2f\n", p.MPCounts, p.AvgMP)
	// Output:
	// alice vs bob: 40 games, +13 =3 -24
	// match points +2..-2: [3 10 3 17 7], average 0.40
}
