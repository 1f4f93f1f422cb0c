package evaluate

import "math"

// MPOutcomes labels the five match-point outcomes of a game for the row
// player, in the order of PairStats.MPCounts: its match points minus its
// opponent's.
var MPOutcomes = [5]int{+2, +1, 0, -1, -2}

// PairStats summarises the games between two players from the row player
// A's side.
type PairStats struct {
	A string `json:"a"`
	B string `json:"b"`
	// Games counts the games; Wins, Draws and Losses are A's, by final
	// stores.
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Score is A's mean result, a draw counting half.
	Score float64 `json:"score"`
	// MPCounts counts the games ending +2, +1, 0, −1, −2 in A's match points
	// minus B's; MPRates are the same as shares of Games (they sum to 1).
	MPCounts [5]int     `json:"mp_counts"`
	MPRates  [5]float64 `json:"mp_rates"`
	// AvgMP is A's average match points per game (0 to 2), AvgMPB B's.
	AvgMP  float64 `json:"avg_mp"`
	AvgMPB float64 `json:"avg_mp_b"`
	// AvgPlies is the average game length in plies.
	AvgPlies float64 `json:"avg_plies"`
	// SouthWins, SouthDraws and SouthLosses count results by seat (South
	// moves first) over these games, whoever sat there.
	SouthWins   int `json:"south_wins"`
	SouthDraws  int `json:"south_draws"`
	SouthLosses int `json:"south_losses"`
}

// Pair returns the statistics of the games between the players named a and
// b, from a's side; games between other players are skipped.
func Pair(a, b string, games []Record) PairStats {
	ps := PairStats{A: a, B: b}
	mp, mpB, plies := 0, 0, 0
	for i := range games {
		r := &games[i]
		sa, sb := r.Seat(a), r.Seat(b)
		if sa < 0 || sb < 0 || sa == sb {
			continue
		}
		ps.Games++
		switch r.Winner() {
		case -1:
			ps.Draws++
			ps.SouthDraws++
		case sa:
			ps.Wins++
		default:
			ps.Losses++
		}
		switch r.Winner() {
		case 0:
			ps.SouthWins++
		case 1:
			ps.SouthLosses++
		}
		d := r.MatchPoints[sa] - r.MatchPoints[sb]
		ps.MPCounts[2-d]++
		mp += r.MatchPoints[sa]
		mpB += r.MatchPoints[sb]
		plies += r.Plies
	}
	if ps.Games > 0 {
		n := float64(ps.Games)
		ps.Score = (float64(ps.Wins) + float64(ps.Draws)/2) / n
		for k, c := range ps.MPCounts {
			ps.MPRates[k] = float64(c) / n
		}
		ps.AvgMP = float64(mp) / n
		ps.AvgMPB = float64(mpB) / n
		ps.AvgPlies = float64(plies) / n
	}
	return ps
}

// EloDiff returns A's rating minus B's implied by its score, the standard
// error of that difference (delta method, from the spread of the per-game
// results) and a 95% interval: the Wilson score interval of the score,
// mapped to Elo. Wilson's interval stays sensible at a perfect or zero score
// (where the difference and its error are infinite) and counts draws as if
// they were half wins and half losses, which makes it slightly conservative.
func (ps PairStats) EloDiff() (elo, se, lo, hi float64) {
	if ps.Games == 0 {
		return 0, math.Inf(1), math.Inf(-1), math.Inf(1)
	}
	n := float64(ps.Games)
	s := ps.Score
	elo = EloFromScore(s)
	v := (float64(ps.Wins)*(1-s)*(1-s) + float64(ps.Draws)*(0.5-s)*(0.5-s) + float64(ps.Losses)*s*s) / n
	se = math.Inf(1)
	if s > 0 && s < 1 {
		// dElo/ds = 400 / (ln 10 · s(1−s)).
		se = eloScale / (s * (1 - s)) * math.Sqrt(v/n)
	}
	z2 := z95 * z95
	center := (s + z2/(2*n)) / (1 + z2/n)
	half := z95 / (1 + z2/n) * math.Sqrt(s*(1-s)/n+z2/(4*n*n))
	return elo, se, EloFromScore(center - half), EloFromScore(center + half)
}
