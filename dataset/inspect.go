package dataset

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"text/tabwriter"
)

// Summary is what `urim dataset inspect` prints: counts, outcomes, lengths,
// end reasons and match-point rates of a dataset, read from its manifest and
// game records (the tensors are not read).
type Summary struct {
	Dir      string `json:"dir"`
	Rules    string `json:"rules"`
	Encoding string `json:"encoding"`
	Outcome  string `json:"outcome"`
	Complete bool   `json:"complete"`
	Program  string `json:"program"`

	Shards    int   `json:"shards"`
	Games     int   `json:"games"`
	Positions int   `json:"positions"`
	Bytes     int64 `json:"bytes"`
	// BytesPerPosition is the shards' size on disk per tensor row.
	BytesPerPosition float64 `json:"bytes_per_position"`

	// Plies summarises game lengths (opening included), Rows the tensor
	// rows per game.
	Plies Lengths `json:"plies"`
	Rows  Lengths `json:"rows"`
	// Reasons counts the games by end reason.
	Reasons map[string]int `json:"reasons"`
	// SouthWins, NorthWins and Draws count results by seat.
	SouthWins int `json:"south_wins"`
	NorthWins int `json:"north_wins"`
	Draws     int `json:"draws"`
	// MatchPoints counts games by South's match points minus North's, from
	// +2 down to -2 (keys "+2" … "-2").
	MatchPoints map[string]int `json:"match_points"`
	// Agents gives each agent spec's results over the games it played
	// (both seats when it played itself).
	Agents []AgentResult `json:"agents"`
}

// Lengths summarises a list of lengths.
type Lengths struct {
	Mean   float64 `json:"mean"`
	Min    int     `json:"min"`
	Median int     `json:"median"`
	P90    int     `json:"p90"`
	Max    int     `json:"max"`
}

// AgentResult is one agent's record in a dataset, counted per seat played.
type AgentResult struct {
	Spec            string  `json:"spec"`
	Seats           int     `json:"seats"`
	Wins            int     `json:"wins"`
	Draws           int     `json:"draws"`
	Loss            int     `json:"losses"`
	Score           float64 `json:"score"`
	MeanMatchPoints float64 `json:"mean_match_points"`
}

func lengths(v []int) Lengths {
	if len(v) == 0 {
		return Lengths{}
	}
	s := slices.Sorted(slices.Values(v))
	sum := 0
	for _, x := range s {
		sum += x
	}
	return Lengths{Mean: float64(sum) / float64(len(s)), Min: s[0], Median: s[len(s)/2], P90: s[len(s)*9/10], Max: s[len(s)-1]}
}

// Inspect summarises the dataset in dir.
func Inspect(dir string) (*Summary, error) {
	d, err := Open(dir)
	if err != nil {
		return nil, err
	}
	m := d.Manifest
	sum := &Summary{Dir: dir, Rules: m.Rules.Name, Encoding: m.Encoding, Outcome: m.Outcome, Complete: m.Complete,
		Program: m.Program, Shards: len(m.Shards), Games: m.Games, Positions: m.Positions,
		Reasons: map[string]int{}, MatchPoints: map[string]int{}}
	var plies, rows []int
	agents := map[string]*AgentResult{}
	var mpSum = map[string]int{}
	for i, s := range m.Shards {
		sum.Bytes += s.TensorsBytes + s.GamesBytes
		recs, err := d.loadRecords(i)
		if err != nil {
			return nil, fmt.Errorf("dataset: %w", err)
		}
		for _, r := range recs {
			plies = append(plies, r.Plies)
			rows = append(rows, r.Positions)
			sum.Reasons[r.Reason]++
			switch r.Winner {
			case 0:
				sum.SouthWins++
			case 1:
				sum.NorthWins++
			default:
				sum.Draws++
			}
			sum.MatchPoints[fmt.Sprintf("%+d", r.MatchPoints[0]-r.MatchPoints[1])]++
			for seat, spec := range r.Agents {
				a := agents[spec]
				if a == nil {
					a = &AgentResult{Spec: spec}
					agents[spec] = a
				}
				a.Seats++
				switch r.Winner {
				case seat:
					a.Wins++
				case -1:
					a.Draws++
				default:
					a.Loss++
				}
				mpSum[spec] += r.MatchPoints[seat]
			}
		}
	}
	if sum.Positions > 0 {
		sum.BytesPerPosition = float64(sum.Bytes) / float64(sum.Positions)
	}
	sum.Plies, sum.Rows = lengths(plies), lengths(rows)
	for _, a := range agents {
		a.Score = (float64(a.Wins) + 0.5*float64(a.Draws)) / float64(a.Seats)
		a.MeanMatchPoints = float64(mpSum[a.Spec]) / float64(a.Seats)
		sum.Agents = append(sum.Agents, *a)
	}
	sort.Slice(sum.Agents, func(i, j int) bool { return sum.Agents[i].Spec < sum.Agents[j].Spec })
	return sum, nil
}

// WriteText prints the summary as a few aligned tables.
func (s *Summary) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	pct := func(n int) string {
		if s.Games == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(s.Games))
	}
	state := "complete"
	if !s.Complete {
		state = "INCOMPLETE (resume the run that wrote it)"
	}
	fmt.Fprintf(tw, "dataset\t%s (%s)\n", s.Dir, state)
	fmt.Fprintf(tw, "rules, encoding, outcome\t%s, %s, %s\n", s.Rules, s.Encoding, s.Outcome)
	fmt.Fprintf(tw, "written by\t%s\n", s.Program)
	fmt.Fprintf(tw, "shards, games, positions\t%d, %d, %d\n", s.Shards, s.Games, s.Positions)
	fmt.Fprintf(tw, "size on disk\t%d bytes, %.1f bytes per position\n", s.Bytes, s.BytesPerPosition)
	fmt.Fprintf(tw, "plies per game\tmean %.1f, min %d, median %d, p90 %d, max %d\n", s.Plies.Mean, s.Plies.Min, s.Plies.Median, s.Plies.P90, s.Plies.Max)
	fmt.Fprintf(tw, "rows per game\tmean %.1f, min %d, median %d, p90 %d, max %d\n", s.Rows.Mean, s.Rows.Min, s.Rows.Median, s.Rows.P90, s.Rows.Max)
	fmt.Fprintf(tw, "results\tSouth %d (%s), North %d (%s), draws %d (%s)\n", s.SouthWins, pct(s.SouthWins), s.NorthWins, pct(s.NorthWins), s.Draws, pct(s.Draws))
	fmt.Fprintf(tw, "match points, South − North\t")
	for i, k := range []string{"+2", "+1", "+0", "-1", "-2"} {
		if i > 0 {
			fmt.Fprint(tw, ", ")
		}
		fmt.Fprintf(tw, "%s: %s", k, pct(s.MatchPoints[k]))
	}
	fmt.Fprintln(tw)
	reasons := make([]string, 0, len(s.Reasons))
	for r := range s.Reasons {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	fmt.Fprintf(tw, "end reasons\t")
	for i, r := range reasons {
		if i > 0 {
			fmt.Fprint(tw, ", ")
		}
		fmt.Fprintf(tw, "%s %d (%s)", r, s.Reasons[r], pct(s.Reasons[r]))
	}
	fmt.Fprintln(tw)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "agent\tseats\twins\tdraws\tlosses\tscore\tmatch points/game")
	for _, a := range s.Agents {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.3f\t%.2f\n", a.Spec, a.Seats, a.Wins, a.Draws, a.Loss, a.Score, a.MeanMatchPoints)
	}
	return tw.Flush()
}
