package evaluate

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// WriteMarkdown writes the tournament as Markdown for people: the setup, the
// ratings sorted from the strongest, the match-point rates of every pairing
// and the probability that each player is stronger than each other.
func WriteMarkdown(w io.Writer, res *Result) error {
	ew := &errWriter{w: w}
	c := &res.Config
	ew.printf("# Tournament: %s on %s\n\n", c.Format, c.Rules)
	opening := "from the start position"
	if c.OpeningPlies > 0 {
		opening = fmt.Sprintf("openings of %d random plies", c.OpeningPlies)
		if c.Paired {
			opening += ", each played with both seat orders"
		}
	}
	ew.printf("%d games per pairing, %s, seed %d: %d games (%d played now, %d reused).\n\n",
		c.Games, opening, c.Seed, len(res.Games), res.Played, res.Reused)
	if r := res.Ratings; r != nil {
		ew.printf("## Ratings\n\nElo on the 400-point scale, %s anchored at %g; ± is one standard error, the interval 95%%.\n\n",
			r.Anchor, c.AnchorElo)
		ew.printf("| rank | agent | Elo | ± | 95%% interval | games | score |\n|---:|---|---:|---:|---|---:|---:|\n")
		for rank, i := range r.order() {
			p := r.Players[i]
			ew.printf("| %d | %s | %.0f | %.0f | [%.0f, %.0f] | %d | %.1f%% |\n",
				rank+1, mdEscape(p.Name), p.Elo, p.SE, p.Lo, p.Hi, p.Games, 100*p.Score)
		}
		ew.printf("\n")
	}
	if len(res.Pairs) > 0 {
		ew.printf("## Pairings\n\nFor the row agent A: wins-draws-losses by seeds, score (a draw counts half), the share of games " +
			"ending +2 … −2 in match points (A's minus B's), A's and B's average match points, average length in plies.\n\n")
		ew.printf("| A | B | games | W-D-L | score | +2 | +1 | 0 | −1 | −2 | MP A | MP B | plies |\n")
		ew.printf("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, ps := range res.Pairs {
			ew.printf("| %s | %s | %d | %d-%d-%d | %.1f%% |", mdEscape(ps.A), mdEscape(ps.B), ps.Games, ps.Wins, ps.Draws, ps.Losses, 100*ps.Score)
			for _, r := range ps.MPRates {
				ew.printf(" %.1f%% |", 100*r)
			}
			ew.printf(" %.2f | %.2f | %.1f |\n", ps.AvgMP, ps.AvgMPB, ps.AvgPlies)
		}
		ew.printf("\n")
	}
	if shutouts := res.Shutouts(); len(shutouts) > 0 {
		prior := c.PriorDraws
		if prior == 0 {
			prior = DefaultPriorDraws
		}
		ew.printf("## Shutouts\n\nNo game bounds the gap of a pairing one agent won outright: the %g virtual draw(s) per pairing "+
			"(prior_draws) set it and pull the two together. Read these gaps as lower bounds.\n\n", prior)
		ew.printf("| winner | loser | games | gap | ± | gap with half the virtual draws | pull | this pairing alone |\n")
		ew.printf("|---|---|---:|---:|---:|---:|---:|---:|\n")
		for _, s := range shutouts {
			ew.printf("| %s | %s | %d-0 | %+.0f | %.0f | %+.0f | %.0f | %+.0f |\n", mdEscape(s.Winner), mdEscape(s.Loser), s.Games,
				s.Gap, s.GapSE, s.HalfPriorGap, s.Pull, s.AloneGap)
		}
		ew.printf("\n")
	}
	if r := res.Ratings; r != nil && len(r.Players) > 1 {
		order := r.order()
		ew.printf("## Probability that the row agent is stronger\n\n|  |")
		for _, j := range order {
			ew.printf(" %s |", mdEscape(r.Players[j].Name))
		}
		ew.printf("\n|---|%s\n", strings.Repeat("---:|", len(order)))
		for _, i := range order {
			ew.printf("| %s |", mdEscape(r.Players[i].Name))
			for _, j := range order {
				if i == j {
					ew.printf("  |")
					continue
				}
				ew.printf(" %s |", percent(r.Superiority[i][j]))
			}
			ew.printf("\n")
		}
	}
	return ew.err
}

// percent prints a probability with enough digits to tell 99.9% from 100%.
func percent(p float64) string {
	switch {
	case p > 0.999:
		return ">99.9%"
	case p < 0.001:
		return "<0.1%"
	}
	return fmt.Sprintf("%.1f%%", 100*p)
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// order returns player indices from the highest rating down.
func (r *Ratings) order() []int {
	idx := make([]int, len(r.Players))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return r.Players[idx[a]].Elo > r.Players[idx[b]].Elo })
	return idx
}

// WriteJSON writes the result (setup, ratings with covariance and
// superiority, pairings) as indented JSON for programs; the games go to the
// CSV.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// CSVHeader lists the columns of [WriteCSV].
var CSVHeader = []string{"rules", "max_plies", "south", "north", "south_spec", "north_spec", "seed", "index",
	"opening", "moves", "plies", "south_store", "north_store", "south_mp", "north_mp", "winner", "reason"}

// WriteCSV writes one row per game with the columns of CSVHeader. Moves and
// openings are actions separated by spaces; winner is south, north or draw.
func WriteCSV(w io.Writer, games []Record) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for i := range games {
		r := &games[i]
		winner := [...]string{"draw", "south", "north"}[r.Winner()+1]
		row := []string{r.Rules, strconv.Itoa(r.MaxPlies), r.Players[0], r.Players[1], r.Specs[0], r.Specs[1],
			strconv.FormatUint(r.Seed, 10), strconv.Itoa(r.Index), joinMoves(r.Opening), joinMoves(r.Moves),
			strconv.Itoa(r.Plies), strconv.Itoa(r.Stores[0]), strconv.Itoa(r.Stores[1]),
			strconv.Itoa(r.MatchPoints[0]), strconv.Itoa(r.MatchPoints[1]), winner, r.Reason}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func joinMoves(m []int) string {
	parts := make([]string, len(m))
	for i, a := range m {
		parts[i] = strconv.Itoa(a)
	}
	return strings.Join(parts, " ")
}

// Report file names inside an output directory.
const (
	ReportMarkdown = "report.md"
	ReportJSON     = "results.json"
	ReportCSV      = "games.csv"
	ReportChart    = "ratings.png"
)

// WriteReports writes report.md, results.json, games.csv and ratings.png
// into dir (created if missing), each atomically, and returns their paths.
func WriteReports(dir string, res *Result) ([]string, error) {
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{ReportMarkdown, func(w io.Writer) error { return WriteMarkdown(w, res) }},
		{ReportJSON, func(w io.Writer) error { return WriteJSON(w, res) }},
		{ReportCSV, func(w io.Writer) error { return WriteCSV(w, res.Games) }},
	}
	if res.Ratings != nil {
		files = append(files, struct {
			name  string
			write func(io.Writer) error
		}{ReportChart, func(w io.Writer) error { return WriteChart(w, res.Ratings, chartTitle(res)) }})
	}
	var paths []string
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := WriteFileAtomic(p, f.write); err != nil {
			return paths, fmt.Errorf("evaluate: report %s: %w", p, err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

func chartTitle(res *Result) string {
	return fmt.Sprintf("Elo on %s, %d games (95%% intervals)", res.Config.Rules, len(res.Games))
}

// errWriter keeps the first write error, so a report is written without an
// error check per line.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
