package tablebase

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/urim-rl/urim/env"
)

// Report is what `urim tablebase probe` prints about a position.
type Report struct {
	Position string `json:"position"`
	Rules    string `json:"rules"`
	Entry
	Exact bool   `json:"exact"`
	Moves []Move `json:"moves"`
	// Best lists the moves that keep the best lower bound, the table's
	// choice first (see Best).
	Best []int `json:"best"`
}

// ProbePosition reads a position in urim's notation under the table's rules
// and reports its bounds and every move's.
func (t *Table) ProbePosition(text string) (*Report, error) {
	g, err := env.NewGame(t.rules)
	if err != nil {
		return nil, err
	}
	s, err := g.ParsePosition(text)
	if err != nil {
		return nil, err
	}
	e, err := t.Probe(&s)
	if err != nil {
		return nil, err
	}
	r := &Report{Position: s.String(), Rules: t.rules.Name, Entry: e, Exact: e.Exact(), Moves: []Move{}, Best: []int{}}
	if !s.Terminal() {
		if r.Moves, err = t.Moves(&s); err != nil {
			return nil, err
		}
		for _, m := range Best(r.Moves) {
			r.Best = append(r.Best, m.Action)
		}
	}
	return r, nil
}

// WriteText prints r for people.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s (%s)\n", r.Position, r.Rules)
	if r.Exact {
		fmt.Fprintf(w, "value: the player to move ends with %d of the %d seeds on the board (exact)\n", r.Lower, r.Seeds)
	} else {
		fmt.Fprintf(w, "value: the player to move ends with %d to %d of the %d seeds on the board (bounds)\n", r.Lower, r.Upper, r.Seeds)
	}
	if len(r.Moves) == 0 {
		fmt.Fprintln(w, "the game is over")
		return nil
	}
	best := map[int]bool{}
	for _, a := range r.Best {
		best[a] = true
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "action\tlower\tupper\tcaptures\t")
	for _, m := range r.Moves {
		mark := ""
		switch {
		case len(r.Best) > 0 && m.Action == r.Best[0]:
			mark = "best (the table's move)"
		case best[m.Action]:
			mark = "best"
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%s\n", m.Action, m.Lower, m.Upper, m.Captured, mark)
	}
	return tw.Flush()
}
