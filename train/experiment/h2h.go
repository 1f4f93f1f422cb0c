package experiment

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/urim-rl/urim/evaluate"
)

// h2hStoreFile is the game store of the head-to-head round robin.
const h2hStoreFile = "ratings/h2h.jsonl"

// H2HCell is one cell's head-to-head rating: the mean of its seeds'
// ratings in the one fit, with the 95% interval of that mean from the
// fit's covariance (so the seeds are pooled, not treated as independent).
type H2HCell struct {
	Cell        string
	Runs        int
	Elo, Lo, Hi float64
}

// headToHead rates every run's final network against every other and the
// panel in one round robin at p.H2HSims, filling rows' H2H fields, and
// returns the cells' pooled ratings. Its
// games are kept in their own store and reused on resume.
func (c *Config) headToHead(ctx context.Context, p *Plan, rows []Row) ([]H2HCell, error) {
	cfg0, err := c.runConfig(p, p.Runs[0])
	if err != nil {
		return nil, err
	}
	rules, err := cfg0.RulesOf()
	if err != nil {
		return nil, fmt.Errorf("experiment: %w", err)
	}
	sims, games := p.H2HSims, p.H2HGames
	if sims == 0 {
		sims = p.RateSims
	}
	if games == 0 {
		games = p.Games
	}
	var players []evaluate.Player
	for _, r := range rows {
		players = append(players, evaluate.Player{Name: h2hName(r.RunSpec),
			Spec: fmt.Sprintf("az:ckpt=%s,sims=%d", filepath.Join(c.Out, r.Dir, "checkpoints", "latest.ckpt"), sims)})
	}
	for _, o := range p.Panel {
		players = append(players, evaluate.Player{Spec: o})
	}
	tc := evaluate.Config{
		Setup:  evaluate.Setup{Rules: rules.Name, Custom: &rules, OpeningPlies: 4, Paired: true, Seed: 1, Workers: cfg0.Workers},
		Format: evaluate.RoundRobin, Agents: players, Games: games,
		Store:    filepath.Join(c.Out, h2hStoreFile),
		Progress: c.Progress.Func("head to head", "games"),
	}
	if len(p.Panel) > 0 && p.Panel[0] == "random" {
		tc.Anchor = "random"
	}
	res, err := evaluate.RunTournament(ctx, tc)
	if err != nil {
		return nil, fmt.Errorf("experiment: head to head: %w", err)
	}
	for i := range rows {
		if j := res.Ratings.Index(h2hName(rows[i].RunSpec)); j >= 0 {
			pl := res.Ratings.Players[j]
			rows[i].H2H, rows[i].H2HLo, rows[i].H2HHi = pl.Elo, pl.Lo, pl.Hi
		}
	}
	c.logf("sweep: head to head at %d simulations: %d games played, %d reused\n", sims, res.Played, res.Reused)
	return h2hCells(p, rows, res.Ratings), nil
}

func h2hName(r RunSpec) string { return r.Cell + "/seed-" + strconv.Itoa(r.Seed) }

// h2hCells pools each cell's seeds: the mean of their ratings, and the
// mean's variance (1/n²)·ΣΣ Cov[i][j] over the cell's networks.
func h2hCells(p *Plan, rows []Row, rt *evaluate.Ratings) []H2HCell {
	var out []H2HCell
	for _, cell := range p.Cells {
		var idx []int
		for _, r := range rows {
			if r.Cell == cell.Name {
				if j := rt.Index(h2hName(r.RunSpec)); j >= 0 {
					idx = append(idx, j)
				}
			}
		}
		hc := H2HCell{Cell: cell.Name, Runs: len(idx), Elo: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
		if n := float64(len(idx)); n > 0 {
			var sum, v float64
			for _, i := range idx {
				sum += rt.Players[i].Elo
				for _, j := range idx {
					v += rt.Cov[i][j]
				}
			}
			hc.Elo = sum / n
			h := 1.959964 * math.Sqrt(max(0, v)) / n
			hc.Lo, hc.Hi = hc.Elo-h, hc.Elo+h
		}
		out = append(out, hc)
	}
	return out
}
