package web

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/urim-rl/urim/evaluate"
)

// Record is a game as the page downloads and loads it: the evaluator's game
// record (evaluate.Record, its fields at the top level) with the position
// the game started from when it is not the rules' start, and the game's
// analysis when it has one.
type Record struct {
	evaluate.Record
	Start    string    `json:"start,omitempty"`
	Analysis *Analysis `json:"analysis,omitempty"`
	// Variations are the lines explored beside the main line (Moves), each
	// whole from the start; Singles the positions analysed one by one.
	Variations [][]int          `json:"variations,omitempty"`
	Singles    []SingleAnalysis `json:"singles,omitempty"`
}

// request returns the game request that replays r.
func (r *Record) request() gameRequest {
	return gameRequest{Rules: r.Rules, CustomRules: r.CustomRules, MaxPlies: r.MaxPlies, Start: r.Start, Moves: r.Moves}
}

type recordRequest struct {
	Game    gameRequest `json:"game"`
	Players [2]string   `json:"players"`
	Specs   [2]string   `json:"specs"`
	Seed    uint64      `json:"seed"`
	// Opening, when given, is the random opening the moves start with (a
	// replayed record's).
	Opening    []int            `json:"opening,omitempty"`
	Analysis   *Analysis        `json:"analysis,omitempty"`
	Variations [][]int          `json:"variations,omitempty"`
	Singles    []SingleAnalysis `json:"singles,omitempty"`
}

// makeRecord builds the record of a game played (or being played) on the
// page.
func (s *Server) makeRecord(q *recordRequest) (*Record, error) {
	g, states, _, err := s.replay(&q.Game)
	if err != nil {
		return nil, err
	}
	if q.Analysis != nil && len(q.Analysis.Plies) > len(states) {
		return nil, fmt.Errorf("%w: the analysis has %d positions, the game %d", errBadGame, len(q.Analysis.Plies), len(states))
	}
	if err := s.checkLines(q.Game, q.Variations, q.Singles); err != nil {
		return nil, err
	}
	last := &states[len(states)-1]
	r := &Record{Start: strings.TrimSpace(q.Game.Start), Analysis: q.Analysis, Variations: q.Variations, Singles: q.Singles}
	r.SetRules(g.Rules())
	r.Players, r.Specs, r.Seed = q.Players, q.Specs, q.Seed
	r.Moves = slices.Clone(q.Game.Moves)
	if r.Moves == nil {
		r.Moves = []int{}
	}
	if len(q.Opening) > len(r.Moves) || !slices.Equal(q.Opening, r.Moves[:len(q.Opening)]) {
		return nil, fmt.Errorf("%w: the opening %v is not the start of the moves", errBadGame, q.Opening)
	}
	r.Opening = slices.Clone(q.Opening)
	if r.Opening == nil {
		r.Opening = []int{}
	}
	r.Plies = len(r.Moves)
	r.Stores = [2]int{last.Store(0), last.Store(1)}
	r.Reason = last.Reason().String()
	if last.Terminal() {
		r.Stores = last.FinalStores()
		r.MatchPoints = last.MatchPoints()
	}
	return r, nil
}

func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request) {
	var q recordRequest
	if err := decode(r, &q); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	rec, err := s.makeRecord(&q)
	if err != nil {
		writeError(w, status(err), err)
		return
	}
	w.Header().Set("Content-Disposition", `attachment; filename="urim-game.json"`)
	writeJSON(w, rec)
}

// loaded is a record with the game it replays to.
type loaded struct {
	Record *Record  `json:"record"`
	View   gameView `json:"view"`
}

// load checks a record (its moves replay; a finished game from the start
// agrees with its stores, match points and reason) and returns it with its
// game; its analysis is returned as it is, never recomputed.
func (s *Server) load(rec *Record) (*loaded, error) {
	if rec.Rules == "" && rec.CustomRules == nil {
		return nil, fmt.Errorf("%w: the record names no rules", errBadGame)
	}
	q := rec.request()
	g, states, traces, err := s.replay(&q)
	if err != nil {
		return nil, err
	}
	if rec.Start == "" && states[len(states)-1].Terminal() {
		if err := rec.Check(); err != nil {
			return nil, fmt.Errorf("%w: the record disagrees with its moves: %w", errBadGame, err)
		}
	}
	if a := rec.Analysis; a != nil && len(a.Plies) > len(states) {
		return nil, fmt.Errorf("%w: the analysis has %d positions, the game %d", errBadGame, len(a.Plies), len(states))
	}
	if err := s.checkLines(q, rec.Variations, rec.Singles); err != nil {
		return nil, err
	}
	return &loaded{Record: rec, View: newGameView(g, &q, states, traces)}, nil
}

func (s *Server) handleLoadRecord(w http.ResponseWriter, r *http.Request) {
	var rec Record
	if err := decode(r, &rec); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	l, err := s.load(&rec)
	if err != nil {
		writeError(w, status(err), err)
		return
	}
	writeJSON(w, l)
}
