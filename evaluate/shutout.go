package evaluate

import "math"

// Shutout is a pairing that one agent won in every game. No game then bounds
// the gap between the two: the virtual draws of the Elo fit
// (EloOptions.PriorDraws) set it, and pull the two ratings together.
type Shutout struct {
	Winner string `json:"winner"`
	Loser  string `json:"loser"`
	Games  int    `json:"games"`
	// Gap is the fitted rating difference, winner minus loser, and GapSE
	// its standard error.
	Gap   float64 `json:"gap"`
	GapSE float64 `json:"gap_se"`
	// HalfPriorGap is the same difference refitted with half as many
	// virtual draws: Pull = HalfPriorGap − Gap is how much the prior holds
	// the pair together (it grows without bound as the prior goes to 0).
	HalfPriorGap float64 `json:"half_prior_gap"`
	Pull         float64 `json:"pull"`
	// AloneGap is the gap this pairing alone would give, 400·log10(2n/p+1)
	// for n games and p virtual draws: 833 Elo for 60-0 with one.
	AloneGap float64 `json:"alone_gap"`
}

// Shutouts lists the pairings of a summarised result that one agent won
// outright, with how much the virtual draws pull their gap (a second fit,
// with half the prior). It returns nil when there are none or no ratings.
func (res *Result) Shutouts() []Shutout {
	r := res.Ratings
	if r == nil {
		return nil
	}
	cfg := &res.Config
	prior := cfg.PriorDraws
	if prior == 0 {
		prior = DefaultPriorDraws
	}
	if prior < 0 {
		return nil // the fit would have failed on a shutout
	}
	idx := map[string]int{}
	for i, p := range r.Players {
		idx[p.Name] = i
	}
	var out []Shutout
	var half *Ratings
	for _, ps := range res.Pairs {
		if ps.Games == 0 || ps.Draws > 0 || (ps.Wins > 0 && ps.Losses > 0) {
			continue
		}
		w, l := ps.A, ps.B
		if ps.Losses > 0 {
			w, l = l, w
		}
		i, j := idx[w], idx[l]
		if half == nil {
			var err error
			half, err = FitElo(res.Players, Outcomes(res.Players, res.Games),
				EloOptions{Anchor: cfg.anchorIndex(), AnchorElo: cfg.AnchorElo, PriorDraws: prior / 2})
			if err != nil {
				return nil
			}
		}
		s := Shutout{Winner: w, Loser: l, Games: ps.Games,
			Gap:          r.Players[i].Elo - r.Players[j].Elo,
			GapSE:        math.Sqrt(max(0, r.Cov[i][i]+r.Cov[j][j]-2*r.Cov[i][j])),
			HalfPriorGap: half.Players[i].Elo - half.Players[j].Elo,
			AloneGap:     400 * math.Log10(2*float64(ps.Games)/prior+1),
		}
		s.Pull = s.HalfPriorGap - s.Gap
		out = append(out, s)
	}
	return out
}
