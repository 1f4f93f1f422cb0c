package classic

import (
	"fmt"
	"time"
	"unsafe"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/memlimit"
	"github.com/urim-rl/urim/tablebase"
)

func init() {
	agents.Register("alphabeta",
		"negamax alpha-beta, iterative deepening, transposition table: depth=10 (plies, 1-60), time=0s (per move, 0: no limit), tt=20 (log2 table entries, 0: no table), tb=FILE (score positions from an endgame table)",
		func(p *agents.Params, seed uint64) (agents.Agent, error) {
			cfg := AlphaBetaConfig{
				Depth:  p.Budget("depth", 10, 1, MaxAlphaBetaDepth),
				Time:   p.TimeBudget("time", 0),
				TTBits: p.Budget("tt", 20, 0, 28), // memory: 16 bytes × 2^tt
			}
			tb := p.File("tb", "")
			if err := p.Done(); err != nil { // before allocating the table
				return nil, err
			}
			if err := CheckTTMemory(cfg.TTBits); err != nil {
				return nil, err
			}
			if tb != "" {
				t, err := LoadTable(tb)
				if err != nil {
					return nil, err
				}
				cfg.Table = t
			}
			return NewAlphaBeta(cfg), nil
		})
}

// MaxAlphaBetaDepth is the deepest search AlphaBeta accepts, in plies.
const MaxAlphaBetaDepth = 60

// Scores. An ongoing position is worth the store difference in seeds; a
// finished one WinScore plus the margin of the final stores (so any win beats
// any unfinished advantage, and bigger wins beat smaller ones), minus WinScore
// for a loss, the margin alone (0) for a draw.
const (
	WinScore = 1000
	infinity = 2 * WinScore
)

// AlphaBetaConfig sets an AlphaBeta search. The zero value is depth 1, no time
// limit, no transposition table.
type AlphaBetaConfig struct {
	// Depth is the deepest iteration, in plies (1 to MaxAlphaBetaDepth; 0
	// means 1).
	Depth int
	// Time stops the search after this long per move and plays the best move
	// of the last completed iteration; 0 means no limit. A time limit makes
	// the choice depend on the machine's speed, so it is not reproducible.
	Time time.Duration
	// TTBits is log2 of the number of transposition-table entries (16 bytes
	// each); 0 means no table.
	TTBits int
	// Table, if set, scores every position below the root that it holds
	// (see tableScore in tb.go), instead of searching it; nil means none.
	Table *tablebase.Table
}

// AlphaBeta is a negamax search with alpha-beta pruning, iterative deepening
// (depth 1, 2, … up to the limit or until the time runs out), move ordering
// (the transposition-table or previous best move first, then captures by
// size, then moves that caused cutoffs before) and a transposition table.
//
// # Evaluation
//
// A position where the game goes on is worth Store(mover) − Store(opponent),
// in seeds, from the point of view of the player to move. Seeds still on the
// rows count for nobody: they are not safe. A finished position (including
// one ended by repetition or the ply cap) is scored from its final stores:
// ±WinScore plus the margin, 0 for a draw. SearchInfo.Value is this score.
//
// # Repetition and the transposition table
//
// The repetition rule makes a position's value depend on the positions played
// since the last capture, which env.State.Hash does not see: the same board
// reached along two paths can have different values, because a quiet line
// that repeats an earlier position ends the game along one path but not the
// other. The search itself is exact, since every State carries its history.
// To keep the table sound, a stored value is used for a cutoff only at a
// node whose history is the node alone (Quiet() == 0: just after a capture,
// or the start), and only if it was computed at such a node; everywhere else
// the table only orders moves. The price is fewer cutoffs on long quiet
// stretches; the search never returns a value that the rules contradict.
// Under a ply cap (Rules.MaxPlies > 0) the value also depends on the ply, so
// the table only orders moves.
//
// # What the value is
//
// SearchInfo.Value is exactly the value of plain depth-limited minimax
// (negamax with the scores above, every line cut at Depth plies) from the
// position with its history, and the move played achieves it: pruning,
// move ordering and the table change the time, never the result. To keep
// that promise the table serves a cutoff only from an entry searched to the
// same remaining depth: the same position recurs at different distances
// from the root (after captures), and a deeper entry's value, though better
// informed, is not the depth-limited value. The tests compare with plain
// minimax at depths 1 to 5 (7 on a few positions) and with an independent
// alpha-beta at depths 7 to 9, on random positions of every preset and on
// endgames where positions recur at different distances.
//
// # Reproducibility
//
// The search is deterministic: it draws no random numbers, and the seed is
// unused. The table and the move-ordering statistics persist between moves of
// a game and are cleared by Reset, so the same game played again from a reset
// agent gives the same moves. Only a time limit makes results depend on the
// machine.
type AlphaBeta struct {
	cfg AlphaBetaConfig
	tt  *table

	// cutoffs scores moves that caused a beta cutoff (the history
	// heuristic), per player and action.
	cutoffs [2][env.MaxActions]int32

	// Per-search state.
	nodes    int64
	deadline time.Time
	timed    bool
	stopped  bool
	trustTT  bool // no ply cap: clean values may be reused
	pv       [MaxAlphaBetaDepth + 1][MaxAlphaBetaDepth + 1]int8
	pvLen    [MaxAlphaBetaDepth + 1]int
	kids     [MaxAlphaBetaDepth + 1][env.MaxActions]env.State
	info     agents.SearchInfo
}

// CheckTTMemory reports an error giving the figures if a transposition
// table of 2^bits entries does not fit in the memory this process may use
// (internal/memlimit): the spec's tt=28 takes 4.3 GB. The spec's builder
// checks it before allocating the table.
func CheckTTMemory(bits int) error {
	if bits <= 0 {
		return nil
	}
	size := uint64(unsafe.Sizeof(ttEntry{}))
	return memlimit.Check(fmt.Sprintf("alphabeta tt=%d (2^%d entries of %d bytes)", bits, bits, size), size<<uint(bits))
}

// NewAlphaBeta returns an AlphaBeta agent. It allocates the transposition
// table now; the search allocates nothing per node.
func NewAlphaBeta(cfg AlphaBetaConfig) *AlphaBeta {
	cfg.Depth = max(1, min(cfg.Depth, MaxAlphaBetaDepth))
	a := &AlphaBeta{cfg: cfg}
	if cfg.TTBits > 0 {
		a.tt = newTable(cfg.TTBits)
	}
	return a
}

// Reset clears the transposition table and the move-ordering statistics.
func (a *AlphaBeta) Reset() {
	if a.tt != nil {
		a.tt.clear()
	}
	a.cutoffs = [2][env.MaxActions]int32{}
}

// LastSearch reports the last decision: value, principal variation,
// completed depth and nodes searched.
func (a *AlphaBeta) LastSearch() agents.SearchInfo {
	info := a.info
	info.PV = append([]int(nil), a.info.PV...)
	return info
}

// Act searches s and returns the best move found.
func (a *AlphaBeta) Act(s *env.State) (int, error) {
	if s.Terminal() {
		return 0, agents.NoMove(s)
	}
	if a.cfg.Table != nil {
		if err := a.cfg.Table.CheckGame(s.Game()); err != nil {
			return 0, err
		}
	}
	a.nodes = 0
	a.stopped = false
	a.timed = a.cfg.Time > 0
	a.deadline = time.Now().Add(a.cfg.Time)
	a.trustTT = s.Game().Rules().MaxPlies == 0
	if a.tt != nil {
		a.tt.age++
	}
	// Older cutoffs count for less, and the counts cannot overflow.
	for p := range a.cutoffs {
		for m := range a.cutoffs[p] {
			a.cutoffs[p][m] >>= 1
		}
	}
	legal := s.Legal()
	best := legal.Nth(0)
	a.info = agents.SearchInfo{PV: append(a.info.PV[:0], best)}
	if a.timed && legal.Count() == 1 {
		return best, nil
	}
	start := time.Now()
	for depth := 1; depth <= a.cfg.Depth; depth++ {
		// Each iteration takes a few times longer than the last, so one
		// begun after half the time would most likely be cut off and
		// wasted.
		if a.timed && depth > 1 && time.Since(start) > a.cfg.Time/2 {
			break
		}
		v := a.negamax(s, depth, 0, -infinity, infinity)
		if a.stopped {
			break
		}
		best = int(a.pv[0][0])
		a.info.Value = float64(v)
		a.info.Depth = depth
		a.info.PV = a.info.PV[:0]
		for i := 0; i < a.pvLen[0]; i++ {
			a.info.PV = append(a.info.PV, int(a.pv[0][i]))
		}
	}
	a.info.Nodes = a.nodes
	return best, nil
}

// terminalScore scores a finished position for the player to move.
func terminalScore(s *env.State) int {
	f := s.FinalStores()
	me := s.ToMove()
	return finalScore([2]int{f[me], f[1-me]})
}

// evaluate scores an ongoing position for the player to move.
func evaluate(s *env.State) int {
	me := s.ToMove()
	return s.Store(me) - s.Store(1-me)
}

// negamax returns the value of s for the player to move, searched depth
// plies deep, at distance ply from the root, within the window (alpha, beta)
// (fail-soft). It fills a.pv[ply] with the principal variation from s.
func (a *AlphaBeta) negamax(s *env.State, depth, ply, alpha, beta int) int {
	a.nodes++
	a.pvLen[ply] = 0
	if a.timed && a.nodes&1023 == 0 && time.Now().After(a.deadline) {
		a.stopped = true
	}
	if a.stopped {
		return 0
	}
	if s.Terminal() {
		return terminalScore(s)
	}
	if a.cfg.Table != nil && ply > 0 {
		if v, ok := tableScore(a.cfg.Table, s); ok {
			return v
		}
	}
	if depth == 0 {
		return evaluate(s)
	}

	key := s.Hash()
	clean := a.trustTT && s.Quiet() == 0
	ttMove := -1
	if a.tt != nil {
		if e, ok := a.tt.probe(key); ok {
			ttMove = int(e.move)
			// Only a value searched to exactly this depth: a deeper one
			// is a different (if better) number, and the promise is
			// minimax at the asked depth.
			if clean && e.clean && ply > 0 && int(e.depth) == depth {
				v := int(e.value)
				if e.bound == boundExact || (e.bound == boundLower && v >= beta) || (e.bound == boundUpper && v <= alpha) {
					if ttMove >= 0 {
						a.pv[ply][0] = int8(ttMove)
						a.pvLen[ply] = 1
					}
					return v
				}
			}
		}
	}

	alpha0 := alpha
	best, bestMove := -infinity, -1
	me := s.ToMove()
	legal := s.Legal()

	// try searches child t reached by action m and reports whether it cut
	// off.
	try := func(t *env.State, m int) bool {
		v := -a.negamax(t, depth-1, ply+1, -beta, -alpha)
		if a.stopped {
			return true
		}
		if v > best {
			best, bestMove = v, m
			if v > alpha {
				alpha = v
				a.pv[ply][0] = int8(m)
				copy(a.pv[ply][1:], a.pv[ply+1][:a.pvLen[ply+1]])
				a.pvLen[ply] = a.pvLen[ply+1] + 1
			}
		}
		return v >= beta
	}

	// Stage 1: the table's move, searched before the others are generated,
	// since it often cuts off alone.
	kids := &a.kids[ply]
	cut := false
	if legal.Has(ttMove) {
		kids[0] = *s
		kids[0].Play(ttMove)
		cut = try(&kids[0], ttMove)
	}

	// Stage 2: the other moves, captures first (largest first), then by
	// the history of cutoffs.
	if !cut {
		var order [env.MaxActions]int
		var score [env.MaxActions]int32
		n := 0
		for m := legal; m != 0; m &= m - 1 {
			act := m.Nth(0)
			if act == ttMove {
				continue
			}
			kids[n] = *s
			kids[n].Play(act)
			sc := a.cutoffs[me][act]
			if gain := kids[n].Store(me) - s.Store(me); gain > 0 {
				sc = 1<<30 + int32(gain)
			}
			// Insertion sort by descending score; the states stay put and
			// order holds their indices, packed as index<<3|action.
			i := n
			for i > 0 && score[i-1] < sc {
				order[i], score[i] = order[i-1], score[i-1]
				i--
			}
			order[i], score[i] = n<<3|act, sc
			n++
		}
		for i := 0; i < n && !cut; i++ {
			k, act := order[i]>>3, order[i]&7
			if cut = try(&kids[k], act); cut && !a.stopped {
				a.cutoffs[me][act] += int32(depth * depth)
			}
		}
	}
	if a.stopped {
		return 0
	}

	if a.tt != nil {
		b := boundExact
		switch {
		case best >= beta:
			b = boundLower
		case best <= alpha0:
			b = boundUpper
		}
		a.tt.store(key, depth, best, b, bestMove, clean)
	}
	return best
}

// String describes the configuration, as a spec string.
func (a *AlphaBeta) String() string {
	return fmt.Sprintf("alphabeta:depth=%d,time=%s,tt=%d", a.cfg.Depth, a.cfg.Time, a.cfg.TTBits)
}
