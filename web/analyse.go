package web

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"sort"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/splitmix"
	"github.com/urim-rl/urim/tablebase"
)

// Analysis is a game's analysis as a record keeps it: who analysed (the
// agent spec, its budget and seed) and what it found at each ply.
type Analysis struct {
	Spec   string            `json:"spec"`
	Budget map[string]string `json:"budget,omitempty"`
	Seed   uint64            `json:"seed"`
	// Unit says what values are: "value" (a result in [-1, 1], MCTS and
	// AlphaZero) or "seeds" (alpha-beta's store difference, ±1000 plus the
	// margin for a forced end).
	Unit  string        `json:"unit"`
	Plies []PlyAnalysis `json:"plies"`
	// Worst lists the plies of the worst moves, worst first: those whose
	// loss is among the three largest and above a small threshold.
	Worst []int `json:"worst"`
}

// PlyAnalysis is what the analysis found at one position.
type PlyAnalysis struct {
	Ply    int  `json:"ply"`    // the position's number in the game, 0 at its start
	Player int  `json:"player"` // the player to move
	Played *int `json:"played,omitempty"`
	// Value is the agent's value for the player to move (for a finished
	// game, its result); Norm the same on the scale [-1, 1] the graph
	// draws.
	Value float64 `json:"value"`
	Norm  float64 `json:"norm"`
	// Best is the agent's move, PV its principal variation, Visits its
	// visits per action (MCTS, AlphaZero).
	Best   *int  `json:"best,omitempty"`
	PV     []int `json:"pv,omitempty"`
	Visits []int `json:"visits,omitempty"`
	Depth  int   `json:"depth,omitempty"`
	Nodes  int64 `json:"nodes,omitempty"`
	// Loss is how much the move played gave away by the analysis' own
	// values: the value before it minus the value after it (both for the
	// mover), on the Norm scale.
	Loss *float64 `json:"loss,omitempty"`
	// Roots are the engine's top moves, best first, each with its own
	// value, visits and line (topmoves.go): from every MCTS or AlphaZero
	// search, and from alpha-beta in a single analysis (each move searched
	// again, which costs a search per move).
	Roots []RootLine `json:"roots,omitempty"`
	// Table is the endgame table's report when the table covers the
	// position.
	Table *tablebase.Report `json:"table,omitempty"`
}

type analyseRequest struct {
	Game gameRequest `json:"game"`
	// Ply is the position analysed (0: the start).
	Ply  int    `json:"ply"`
	Spec string `json:"spec"`
	Seed uint64 `json:"seed"`
}

// analyser is an agent built for one analysis, holding a search slot.
type analyser struct {
	a       agents.Agent
	unit    string
	release func()
}

// close closes the agent and gives its search slot back.
func (an *analyser) close() {
	agents.Close(an.a)
	an.release()
}

// newAnalyser checks spec against the policy, takes a search slot (waiting
// as acquire does), and only then builds the agent: what an agent holds (an
// alpha-beta table, a network) is built by at most --max-jobs requests at
// once, so the slots bound memory as well as CPU. close gives both back.
func (s *Server) newAnalyser(ctx context.Context, spec string, seed uint64, mustSearch bool) (*analyser, string, error) {
	spec, err := s.policy.check(spec)
	if err != nil {
		return nil, "", err
	}
	release, err := s.acquire(ctx)
	if err != nil {
		return nil, "", err
	}
	a, err := agents.New(spec, seed)
	if err != nil {
		release()
		return nil, "", err
	}
	s.built.Add(1)
	if _, ok := a.(agents.Searcher); mustSearch && !ok {
		agents.Close(a)
		release()
		return nil, "", fmt.Errorf("%w: %s does not search, so it has no values: analyse with mcts, az or alphabeta", errBadGame, spec)
	}
	unit := "value"
	if _, ok := a.(*classic.AlphaBeta); ok {
		unit = "seeds"
	}
	return &analyser{a: a, unit: unit, release: release}, spec, nil
}

// norm maps a value of unit onto [-1, 1] for a game of total seeds.
func norm(v float64, unit string, total int) float64 {
	if unit == "seeds" {
		if math.Abs(v) >= classic.WinScore {
			return math.Copysign(1, v)
		}
		v /= float64(total)
	}
	return max(-1, min(1, v))
}

// analysePly analyses st, the game's position number idx (0: its start),
// with an (nil: the table alone); roots asks alpha-beta for its root moves
// too (a search already has them).
func (s *Server) analysePly(an *analyser, idx int, st *env.State, played *int, roots bool) (PlyAnalysis, error) {
	p := PlyAnalysis{Ply: idx, Player: st.ToMove(), Played: played}
	unit := "value"
	if an != nil {
		unit = an.unit
	}
	total := st.Game().Total()
	if st.Terminal() {
		mover := st.ToMove()
		f := st.FinalStores()
		p.Value = float64(st.Rewards(env.RewardMatchPoints)[mover])
		if unit == "seeds" {
			margin := float64(f[mover] - f[1-mover])
			p.Value = margin + math.Copysign(classic.WinScore, margin)*float64(min(1, int(math.Abs(margin))))
		}
		p.Norm = norm(p.Value, unit, total)
	} else if an != nil {
		s.searches.Add(1)
		agents.Reset(an.a)
		act, err := an.a.Act(st)
		if err != nil {
			return p, err
		}
		p.Best = &act
		if sr, ok := an.a.(agents.Searcher); ok {
			info := sr.LastSearch()
			p.Value, p.Norm = info.Value, norm(info.Value, unit, total)
			p.PV, p.Depth, p.Nodes = info.PV, info.Depth, info.Nodes
			for i := range st.Game().PitsPerRow() {
				if info.Visits[i] > 0 {
					p.Visits = make([]int, st.Game().PitsPerRow())
					copy(p.Visits, info.Visits[:])
					break
				}
			}
			if roots || an.unit == "value" {
				if p.Roots, err = rootLines(an, st); err != nil {
					return p, err
				}
			}
		}
	}
	if s.table != nil && s.table.CheckGame(st.Game()) == nil {
		if rep, err := s.table.ProbePosition(st.String()); err == nil {
			p.Table = rep
		}
	}
	return p, nil
}

func (s *Server) handleAnalyse(w http.ResponseWriter, r *http.Request) {
	var q analyseRequest
	if err := decode(r, &q); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	_, states, _, err := s.replay(&q.Game)
	if err != nil {
		writeError(w, status(err), err)
		return
	}
	if q.Ply < 0 || q.Ply >= len(states) {
		writeError(w, http.StatusBadRequest, fmt.Errorf("%w: ply %d: the game has plies 0 to %d", errBadGame, q.Ply, len(states)-1))
		return
	}
	var an *analyser
	spec := ""
	if q.Spec != "" {
		if an, spec, err = s.newAnalyser(r.Context(), q.Spec, q.Seed, true); err != nil {
			writeError(w, status(err), err)
			return
		}
		defer an.close()
	}
	var played *int
	if q.Ply < len(q.Game.Moves) {
		played = &q.Game.Moves[q.Ply]
	}
	start := time.Now()
	p, err := s.analysePly(an, q.Ply, &states[q.Ply], played, true)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	unit := "value"
	if an != nil {
		unit = an.unit
	}
	writeJSON(w, map[string]any{"spec": spec, "unit": unit, "ms": time.Since(start).Milliseconds(), "analysis": p})
}

type moveRequest struct {
	Game gameRequest `json:"game"`
	Spec string      `json:"spec"`
	Seed uint64      `json:"seed"`
}

// handleMove answers the agent's move at the game's last position.
func (s *Server) handleMove(w http.ResponseWriter, r *http.Request) {
	var q moveRequest
	if err := decode(r, &q); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	_, states, _, err := s.replay(&q.Game)
	if err != nil {
		writeError(w, status(err), err)
		return
	}
	st := &states[len(states)-1]
	if st.Terminal() {
		writeError(w, http.StatusBadRequest, fmt.Errorf("%w: the game is over (%s)", errBadGame, st.Reason()))
		return
	}
	an, spec, err := s.newAnalyser(r.Context(), q.Spec, splitmix.Mix(q.Seed^splitmix.Mix(uint64(st.Ply()))), false)
	if err != nil {
		writeError(w, status(err), err)
		return
	}
	defer an.close()
	p, err := s.analysePly(an, len(states)-1, st, nil, false)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err)
		return
	}
	writeJSON(w, map[string]any{"spec": spec, "action": *p.Best, "analysis": p, "unit": an.unit})
}

// gameAnalysisLine is one line of /api/analyse-game's stream.
type gameAnalysisLine struct {
	Done     int          `json:"done"`
	Total    int          `json:"total"`
	Ply      *PlyAnalysis `json:"ply,omitempty"`
	Analysis *Analysis    `json:"analysis,omitempty"`
	Error    string       `json:"error,omitempty"`
}

// handleGameAnalysis analyses every position of a game and streams one JSON line
// per position, then the whole Analysis. It stops when the client goes.
func (s *Server) handleGameAnalysis(w http.ResponseWriter, r *http.Request) {
	var q moveRequest
	if err := decode(r, &q); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	_, states, _, err := s.replay(&q.Game)
	if err != nil {
		writeError(w, status(err), err)
		return
	}
	ctx := r.Context()
	an, spec, err := s.newAnalyser(ctx, q.Spec, q.Seed, true)
	if err != nil {
		writeError(w, status(err), err)
		return
	}
	defer an.close()
	w.Header().Set("Content-Type", "application/x-ndjson")
	enc := json.NewEncoder(w)
	flush := func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	res := &Analysis{Spec: spec, Budget: budgetOf(spec), Seed: q.Seed, Unit: an.unit}
	for i := range states {
		if ctx.Err() != nil {
			return
		}
		var played *int
		if i < len(q.Game.Moves) {
			played = &q.Game.Moves[i]
		}
		p, err := s.analysePly(an, i, &states[i], played, false)
		if err != nil {
			enc.Encode(gameAnalysisLine{Done: i, Total: len(states), Error: err.Error()})
			return
		}
		res.Plies = append(res.Plies, p)
		if enc.Encode(gameAnalysisLine{Done: i + 1, Total: len(states), Ply: &p}) != nil {
			return
		}
		flush()
	}
	res.finish()
	enc.Encode(gameAnalysisLine{Done: len(states), Total: len(states), Analysis: res})
	flush()
}

// budgetOf picks a spec's budget parameters.
func budgetOf(spec string) map[string]string {
	sp, err := agents.ParseSpec(spec)
	if err != nil {
		return nil
	}
	b := map[string]string{}
	for _, k := range []string{"sims", "time", "depth", "rollouts"} {
		if v, ok := sp.Params[k]; ok {
			b[k] = v
		}
	}
	return b
}

// worstThreshold is the smallest loss marked as a bad move (on the Norm
// scale: a tenth of the way from a draw to a win).
const worstThreshold = 0.1

// finish fills each move's loss and the worst moves.
func (a *Analysis) finish() {
	for i := 0; i+1 < len(a.Plies); i++ {
		p, next := &a.Plies[i], &a.Plies[i+1]
		if p.Played == nil || p.Best == nil {
			continue
		}
		// The players alternate: the value after the move, for the mover,
		// is minus the next position's value.
		loss := max(0, p.Norm+next.Norm)
		p.Loss = &loss
	}
	var cand []int
	for i := range a.Plies {
		if l := a.Plies[i].Loss; l != nil && *l >= worstThreshold {
			cand = append(cand, i)
		}
	}
	sort.SliceStable(cand, func(x, y int) bool { return *a.Plies[cand[x]].Loss > *a.Plies[cand[y]].Loss })
	a.Worst = []int{}
	for _, i := range cand[:min(3, len(cand))] {
		a.Worst = append(a.Worst, a.Plies[i].Ply)
	}
}
