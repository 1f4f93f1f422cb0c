package web

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/config"
)

// maxMoves bounds the moves of a game in a request.
const maxMoves = 5000

// gameRequest names a game: its rules, its start and the moves played. The
// rules are, first found: custom_rules (a full rules object, as records
// carry), rules_yaml (a rules file's text, uploaded by the page), or rules:
// a preset name or a rules file inside the served paths ("data0/x.yaml").
type gameRequest struct {
	Rules       string     `json:"rules"`
	RulesYAML   string     `json:"rules_yaml,omitempty"`
	CustomRules *env.Rules `json:"custom_rules,omitempty"`
	// MaxPlies, when above 0, caps the game length (records keep it apart
	// from a preset's name).
	MaxPlies int `json:"max_plies,omitempty"`
	// Start is the first position in the notation; empty is the rules'
	// start.
	Start string `json:"start,omitempty"`
	Moves []int  `json:"moves"`
}

// errBadGame is wrapped by every error about a game request.
var errBadGame = errors.New("bad game")

// game compiles the rules of q.
func (s *Server) game(q *gameRequest) (*env.Game, error) {
	var r env.Rules
	var err error
	switch {
	case q.CustomRules != nil:
		r = *q.CustomRules
	case strings.TrimSpace(q.RulesYAML) != "":
		r, err = env.DecodeRules(strings.NewReader(q.RulesYAML), "the uploaded rules")
	case q.Rules == "":
		r = env.Urim
	default:
		r, err = env.PresetRules(q.Rules)
		if errors.Is(err, env.ErrUnknownPreset) && (env.IsRulesFile(q.Rules) || strings.Contains(q.Rules, "/") || s.isRoot(q.Rules)) {
			// A rules file inside the served paths.
			var l loc
			if l, err = resolve(s.allRoots(), q.Rules); err == nil {
				r, err = loadRules(l)
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: rules: %w", errBadGame, err)
	}
	if q.MaxPlies > 0 {
		r.MaxPlies = q.MaxPlies
	}
	g, err := env.NewGame(r)
	if err != nil {
		return nil, fmt.Errorf("%w: rules: %w", errBadGame, err)
	}
	return g, nil
}

// replay plays q's moves from its start and returns every position (the
// start first) and the trace of each move (traces[i] leads to states[i+1]).
func (s *Server) replay(q *gameRequest) (*env.Game, []env.State, []env.Trace, error) {
	g, err := s.game(q)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(q.Moves) > maxMoves {
		return nil, nil, nil, fmt.Errorf("%w: %d moves, at most %d", errBadGame, len(q.Moves), maxMoves)
	}
	st := g.Start()
	if strings.TrimSpace(q.Start) != "" {
		if st, err = g.ParsePosition(q.Start); err != nil {
			return nil, nil, nil, fmt.Errorf("%w: start: %w", errBadGame, err)
		}
	}
	states := make([]env.State, 0, len(q.Moves)+1)
	traces := make([]env.Trace, 0, len(q.Moves))
	states = append(states, st)
	for i, a := range q.Moves {
		tr, err := st.Trace(a)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%w: move %d: %w", errBadGame, i, err)
		}
		st.Play(a)
		states = append(states, st)
		traces = append(traces, tr)
	}
	return g, states, traces, nil
}

// positionView is one position of a game as the page draws it.
type positionView struct {
	env.PositionRecord
	Notation string `json:"notation"`
	// Trace is the move that led here (absent at the start).
	Trace *env.Trace `json:"trace,omitempty"`
}

// gameView is a whole game as the page draws it.
type gameView struct {
	Rules     env.Rules      `json:"rules"`
	Preset    bool           `json:"preset"`
	Start     string         `json:"start,omitempty"`
	Moves     []int          `json:"moves"`
	Positions []positionView `json:"positions"`
}

func newGameView(g *env.Game, q *gameRequest, states []env.State, traces []env.Trace) gameView {
	r := g.Rules()
	p, err := env.PresetRules(r.Name)
	v := gameView{Rules: r, Preset: err == nil && p.SamePlay(r), Start: strings.TrimSpace(q.Start), Moves: q.Moves}
	if v.Moves == nil {
		v.Moves = []int{}
	}
	for i := range states {
		var a *int
		pv := positionView{Notation: states[i].String()}
		if i > 0 {
			a = &q.Moves[i-1]
			pv.Trace = &traces[i-1]
		}
		pv.PositionRecord = env.NewPositionRecord(0, &states[i], a)
		v.Positions = append(v.Positions, pv)
	}
	return v
}

// loadRules reads a rules file inside its root.
func loadRules(l loc) (env.Rules, error) {
	f, err := l.open(config.MaxFileBytes, "a rules file")
	if err != nil {
		return env.Rules{}, err
	}
	defer f.Close()
	return env.DecodeRules(f, l.display())
}
