package tablebase

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/urim-rl/urim/env"
)

// Report is what `urim tablebase probe` prints about a position.
type Report struct {
	Position string `json:"position"`
	Rules    string `json:"rules"`
	// Entry's Lower and Upper bound the value of the position with its
	// history (the best of the moves' bounds); Exact reports whether they
	// meet.
	Entry
	Exact bool `json:"exact"`
	// Quiet is the number of moves played since the last capture.
	// TableLower and TableUpper are the table's entry, for a fresh
	// history: the same as Lower and Upper when Quiet is 0.
	Quiet      int `json:"quiet"`
	TableLower int `json:"table_lower"`
	TableUpper int `json:"table_upper"`
	// Moves holds every legal move with its bounds from this position
	// with this history and its status (best, keeps-bound, may-cycle,
	// worse or unknown).
	Moves []Move `json:"moves"`
	// Best lists the moves the table calls best (status best or
	// keeps-bound), the table's move first (see Best).
	Best []int `json:"best"`
	// Move is the table's move (see Pick), -1 when the game is over.
	Move int `json:"move"`
	// StoredBest is the position's stored best moves (Table.BestSet: the
	// moves Best lists from it analysed with only itself as history), nil
	// for a table that stores none.
	StoredBest []int `json:"stored_best,omitempty"`
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
	r := &Report{Position: s.String(), Rules: t.rules.Name, Entry: e, Quiet: s.Quiet(),
		TableLower: e.Lower, TableUpper: e.Upper, Moves: []Move{}, Best: []int{}, Move: -1}
	if !s.Terminal() {
		if r.Moves, err = t.Moves(&s); err != nil {
			return nil, err
		}
		r.Lower, r.Upper = Bounds(r.Moves)
		for _, m := range Best(r.Moves) {
			r.Best = append(r.Best, m.Action)
		}
		r.Move = Pick(r.Moves).Action
		if t.HasStoredMoves() {
			set, err := t.BestSet(&s)
			if err != nil {
				return nil, err
			}
			r.StoredBest = append([]int{}, set.Actions()...)
		}
	}
	r.Exact = r.Lower == r.Upper
	return r, nil
}

// WriteText prints r for people.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%s (%s)\n", r.Position, r.Rules)
	if r.Quiet > 0 {
		fmt.Fprint(w, "with this history, ")
	}
	if r.Exact {
		fmt.Fprintf(w, "value: the player to move ends with %d of the %d seeds on the board (exact)\n", r.Lower, r.Seeds)
	} else {
		fmt.Fprintf(w, "value: the player to move ends with %d to %d of the %d seeds on the board (bounds)\n", r.Lower, r.Upper, r.Seeds)
	}
	if r.Quiet > 0 {
		fmt.Fprintf(w, "with a fresh history (the table's entry; %d moves were played since the last capture): %d to %d\n",
			r.Quiet, r.TableLower, r.TableUpper)
	}
	if len(r.Moves) == 0 {
		fmt.Fprintln(w, "the game is over")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "action\tlower\tupper\tcaptures\t")
	for _, m := range r.Moves {
		mark := m.Status.Label()
		if m.Action == r.Move {
			mark = strings.TrimPrefix(mark+" (the table's move)", " ")
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%s\n", m.Action, m.Lower, m.Upper, m.Captured, mark)
	}
	return tw.Flush()
}
