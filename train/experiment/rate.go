package experiment

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strconv"

	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/train"
)

// Row is one run of a finished sweep, as summary.csv holds it.
type Row struct {
	RunSpec
	// Values are the cell's grid values, one per axis.
	Values []string
	// Iterations and ElapsedS are the run's last committed iteration and
	// its training time.
	Iterations int
	ElapsedS   float64
	// Elo, EloLo and EloHi are the final network's rating against the
	// panel, with its 95% interval.
	Elo, EloLo, EloHi float64
	// RunElo is the run's own last in-run rating (metrics.csv's elo; NaN
	// when it never evaluated).
	RunElo float64
	// H2H, H2HLo and H2HHi are the network's rating in the head-to-head
	// round robin of all the sweep's networks and the panel, with its 95%
	// interval.
	H2H, H2HLo, H2HHi float64
}

// storeFile is the one game store of the ratings, in the sweep's directory.
const storeFile = "ratings/games.jsonl"

// rate rates each run's final network (checkpoints/latest.ckpt) in a round
// robin with the panel, all in one store: the panel's games among
// themselves are played once and reused, as are the games of networks
// rated before a resume.
func (c *Config) rate(ctx context.Context, p *Plan) ([]Row, error) {
	cfg0, err := c.runConfig(p, p.Runs[0])
	if err != nil {
		return nil, err
	}
	rules, err := cfg0.RulesOf()
	if err != nil {
		return nil, fmt.Errorf("experiment: %w", err)
	}
	values := map[string][]string{}
	for _, cell := range p.Cells {
		values[cell.Name] = cell.Values
	}
	var rows []Row
	for _, r := range p.Runs {
		dir := filepath.Join(c.Out, r.Dir)
		row := Row{RunSpec: r, Values: values[r.Cell], Elo: math.NaN(), EloLo: math.NaN(), EloHi: math.NaN(), RunElo: math.NaN(), H2H: math.NaN(), H2HLo: math.NaN(), H2HHi: math.NaN()}
		st, ok, err := train.ReadState(dir)
		if err != nil || !ok {
			return nil, fmt.Errorf("experiment: run %s has no state (%v): it did not train", r.Dir, err)
		}
		row.Iterations, row.ElapsedS = st.Iteration, st.ElapsedS
		tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
		if err != nil {
			return nil, err
		}
		for _, v := range tab.Column("elo") {
			if !math.IsNaN(v) {
				row.RunElo = v
			}
		}
		name := r.Cell + "/seed-" + strconv.Itoa(r.Seed)
		players := []evaluate.Player{{Name: name, Spec: fmt.Sprintf("az:ckpt=%s,sims=%d", filepath.Join(dir, "checkpoints", "latest.ckpt"), p.RateSims)}}
		for _, o := range p.Panel {
			players = append(players, evaluate.Player{Spec: o})
		}
		tc := evaluate.Config{
			Setup:  evaluate.Setup{Rules: rules.Name, Custom: &rules, OpeningPlies: 4, Paired: true, Seed: 1, Workers: cfg0.Workers},
			Format: evaluate.RoundRobin, Agents: players, Games: p.Games,
			Store:    filepath.Join(c.Out, storeFile),
			Progress: c.Progress.Func("rating "+name, "games"),
		}
		if len(p.Panel) > 0 && p.Panel[0] == "random" {
			tc.Anchor = "random"
		}
		res, err := evaluate.RunTournament(ctx, tc)
		if err != nil {
			return nil, fmt.Errorf("experiment: rating %s: %w", name, err)
		}
		if i := res.Ratings.Index(name); i >= 0 {
			pl := res.Ratings.Players[i]
			row.Elo, row.EloLo, row.EloHi = pl.Elo, pl.Lo, pl.Hi
		}
		c.logf("sweep: %s: %.0f Elo [%.0f, %.0f] against the panel (%d games played, %d reused)\n", name, row.Elo, row.EloLo, row.EloHi, res.Played, res.Reused)
		rows = append(rows, row)
	}
	return rows, nil
}
