package classic_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/urim-rl/urim/agents/agenttest"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)

func TestAlphaBetaConformance(t *testing.T) { agenttest.Run(t, "alphabeta:depth=4") }

func TestAlphaBetaNoTableConformance(t *testing.T) {
	agenttest.RunWith(t, "alphabeta:depth=3,tt=0", agenttest.Options{Positions: 30, Games: 1})
}

// minimax is the plain, unpruned negamax with the same scores as AlphaBeta:
// the reference its values must equal.
func minimax(s *env.State, depth int) int {
	if s.Terminal() {
		f := s.FinalStores()
		me := s.ToMove()
		switch m := f[me] - f[1-me]; {
		case m > 0:
			return classic.WinScore + m
		case m < 0:
			return -classic.WinScore + m
		}
		return 0
	}
	if depth == 0 {
		return s.Store(s.ToMove()) - s.Store(1-s.ToMove())
	}
	best := -1 << 30
	for _, a := range s.Legal().Actions() {
		t := *s
		t.Play(a)
		best = max(best, -minimax(&t, depth-1))
	}
	return best
}

// TestAlphaBetaEqualsMinimax checks that pruning, move ordering and the
// transposition table never change the value: on random positions of every
// preset (carrying repetition histories), at depths 1 to 5, the search
// returns exactly the minimax value, and its move achieves that value. One
// agent searches all the positions in turn, so the table carries entries
// from earlier positions, as in a game.
func TestAlphaBetaEqualsMinimax(t *testing.T) {
	n, maxDepth := 40, 5 // 40 positions per preset; depth 5 keeps unpruned minimax under a second
	if testing.Short() {
		n, maxDepth = 10, 4
	}
	for _, name := range env.PresetNames() {
		g, _ := env.Preset(name)
		for depth := 1; depth <= maxDepth; depth++ {
			ab := classic.NewAlphaBeta(classic.AlphaBetaConfig{Depth: depth, TTBits: 12})
			for _, s := range agenttest.RandomPositions(g, n, uint64(depth)) {
				a, err := ab.Act(&s)
				if err != nil {
					t.Fatal(err)
				}
				want := minimax(&s, depth)
				if got := int(ab.LastSearch().Value); got != want {
					t.Fatalf("%s depth %d, %v: alpha-beta value %d, minimax %d", name, depth, s, got, want)
				}
				u := s
				u.Play(a)
				if v := -minimax(&u, depth-1); v != want {
					t.Fatalf("%s depth %d, %v: move %d is worth %d, the best is worth %d", name, depth, s, a, v, want)
				}
			}
		}
	}
}

// TestAlphaBetaRepetitionEndgame searches endgames of a few lone seeds,
// where lines end by repetition after a lap of the board and the same board
// recurs along different paths with different histories, and compares with
// minimax at depth 16. A table that reused values across histories gets
// these wrong (it did during development: -3 instead of -1004 for the
// second position).
func TestAlphaBetaRepetitionEndgame(t *testing.T) {
	g := env.MustGame(env.Urim)
	positions := []string{
		"1,0,1,0,0,0/0,0,1,1,0,0 14-18 S 30",
		"1,0,0,0,0,0/0,1,0,1,0,0 15-18 S 30",
		"0,0,0,0,1,1/0,1,0,0,0,1 14-18 S 30",
		"1,0,0,0,0,1/0,0,0,0,1,1 14-18 S 30",
	}
	const depth = 16 // a lap of the board is 12 plies: repetitions happen inside the search
	for _, text := range positions {
		s := mustParse(t, g, text)
		// Walk along the game so later searches start with a history and
		// the table holds entries from earlier searches.
		ab := classic.NewAlphaBeta(classic.AlphaBetaConfig{Depth: depth, TTBits: 14})
		for step := 0; step < 3 && !s.Terminal(); step++ {
			a, err := ab.Act(&s)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := int(ab.LastSearch().Value), minimax(&s, depth); got != want {
				t.Fatalf("%v: alpha-beta %d, minimax %d", s, got, want)
			}
			s.Play(a)
		}
	}
}

// TestAlphaBetaForcedCapture: no capture is possible now. South's c (action
// 2, one seed to d) leaves North only its 3-seed pit, which it must sow
// into its pits 1-3; then South's f (2 seeds) lands on North's second pit,
// making 2, and captures it. Playing f at once makes 4 and 1: nothing. Three
// plies are needed to see it.
func TestAlphaBetaForcedCapture(t *testing.T) {
	g := env.MustGame(env.Urim)
	s := mustParse(t, g, "0,0,1,0,0,2/3,0,0,0,0,0 12-18 S 20")
	for _, depth := range []int{3, 4, 10} {
		ab := classic.NewAlphaBeta(classic.AlphaBetaConfig{Depth: depth, TTBits: 16})
		a, err := ab.Act(&s)
		if err != nil || a != 2 {
			t.Fatalf("depth %d: played %d (%v), want 2 (c, forcing the capture)", depth, a, err)
		}
		if pv := ab.LastSearch().PV; len(pv) < 3 || pv[1] != 0 || pv[2] != 5 {
			t.Errorf("depth %d: principal variation %v, want it to start 2 0 5", depth, pv)
		}
	}
}

// TestAlphaBetaAvoidsForcedLoss: South's f captures 2 at once, but leaves
// its lone seed in a where North's f lands to make 2: North captures it,
// South's row is empty, and North ends 19-17. Any other move avoids that.
func TestAlphaBetaAvoidsForcedLoss(t *testing.T) {
	g := env.MustGame(env.Urim)
	s := mustParse(t, g, "1,0,0,0,0,1/1,0,0,1,0,1 15-16 S 20")
	for _, depth := range []int{3, 6, 10} {
		ab := classic.NewAlphaBeta(classic.AlphaBetaConfig{Depth: depth, TTBits: 16})
		a, err := ab.Act(&s)
		if err != nil || a == 5 {
			t.Fatalf("depth %d: played %d (%v); f (5) loses by force", depth, a, err)
		}
	}
	// Greedy falls for it: f is the only capture.
	if a, _ := classic.NewGreedy(1).Act(&s); a != 5 {
		t.Fatalf("greedy played %d, want the losing capture 5 (else the position does not test anything)", a)
	}
}

// TestAlphaBetaWinningCapture: South is behind 13-17 but f captures North's
// last two seeds; North cannot move, so the game ends and South counts its
// four row seeds: 19-17.
func TestAlphaBetaWinningCapture(t *testing.T) {
	g := env.MustGame(env.Urim)
	s := mustParse(t, g, "1,1,1,1,0,1/1,0,0,0,0,0 13-17 S 20")
	ab := classic.NewAlphaBeta(classic.AlphaBetaConfig{Depth: 6, TTBits: 16})
	if a, err := ab.Act(&s); err != nil || a != 5 {
		t.Fatalf("played %d (%v), want 5", a, err)
	}
	if v := ab.LastSearch().Value; v != classic.WinScore+2 {
		t.Fatalf("value %v, want a win by 2 (%d)", v, classic.WinScore+2)
	}
}

// TestAlphaBetaTimeLimit checks that a time limit stops a search that the
// depth alone would not (depth 60 from the start takes far longer than the
// limit) with a completed iteration and a legal move.
func TestAlphaBetaTimeLimit(t *testing.T) {
	g := env.MustGame(env.Urim)
	s := g.Start()
	ab := classic.NewAlphaBeta(classic.AlphaBetaConfig{Depth: 60, Time: 50 * time.Millisecond, TTBits: 16})
	start := time.Now()
	a, err := ab.Act(&s)
	if err != nil || !s.Legal().Has(a) {
		t.Fatalf("Act = %d, %v", a, err)
	}
	info := ab.LastSearch()
	if info.Depth < 1 || info.Depth >= 60 {
		t.Fatalf("completed depth %d, want between 1 and 59", info.Depth)
	}
	// Generous: the limit is 50ms; this only catches a search that ignores it.
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("search took %v with a 50ms limit", el)
	}
}

func TestAlphaBetaSpecErrors(t *testing.T) {
	for spec, want := range map[string]string{
		"alphabeta:depth=0":     `depth="0": want an integer from 1 to 60`,
		"alphabeta:depth=x":     `depth="x"`,
		"alphabeta:time=soon":   `time="soon": want a duration`,
		"alphabeta:tt=40":       `tt="40": want an integer from 0 to 28`,
		"alphabeta:deep=3":      `unknown parameter deep for agent "alphabeta" (accepted: depth, tb, time, tt)`,
		"alphabeta:depth=3,x=1": "unknown parameter x",
	} {
		agenttest.SpecError(t, spec, want)
	}
}

// TestAlphaBetaTableKeepsDepth is issue 8's reproduction: the table reused
// a value searched deeper than asked (the same post-capture position is
// reached at different distances from the root), so at depth 7 the search
// answered move 4 with -2 where plain minimax at depth 7 gives move 5 with
// 1.
func TestAlphaBetaTableKeepsDepth(t *testing.T) {
	g := env.MustGame(env.Urim)
	s := mustParse(t, g, "0,0,0,0,1,1/0,0,0,2,12,10 5-5 S 0")
	const depth = 7
	want := minimax(&s, depth)
	for _, bits := range []int{0, 16} {
		ab := classic.NewAlphaBeta(classic.AlphaBetaConfig{Depth: depth, TTBits: bits})
		a, err := ab.Act(&s)
		if err != nil {
			t.Fatal(err)
		}
		u := s
		u.Play(a)
		if got := int(ab.LastSearch().Value); got != want || -minimax(&u, depth-1) != want {
			t.Errorf("tt=%d: move %d value %d; minimax value %d (move %d is worth %d)", bits, a, got, want, a, -minimax(&u, depth-1))
		}
	}
}

// refAlphaBeta is the reference for deep cross-checks: plain fail-hard
// alpha-beta over the same scores as minimax, no table, moves in index
// order. Pruning provably leaves the value at the root unchanged, so it
// returns minimax(s, depth) at a fraction of the cost; it shares no code
// with the agent.
func refAlphaBeta(s *env.State, depth, alpha, beta int) int {
	if s.Terminal() || depth == 0 {
		return minimax(s, 0)
	}
	for _, a := range s.Legal().Actions() {
		t := *s
		t.Play(a)
		v := -refAlphaBeta(&t, depth-1, -beta, -alpha)
		if v >= beta {
			return beta
		}
		alpha = max(alpha, v)
	}
	return alpha
}

// endgameWalks returns n positions reached by 0 to 7 random plies from
// endgames where one row is nearly empty and the other holds two big pits
// that lap the board: there captures recur and the same post-capture
// position is reached at different distances from the root, the case that
// TestAlphaBetaTableKeepsDepth pins down. The first start is that test's.
func endgameWalks(g *env.Game, n int, seed uint64) []env.State {
	starts := []string{
		"0,0,0,0,1,1/0,0,0,2,12,10 5-5 S 0",
		"0,0,0,2,12,10/0,0,0,0,1,1 5-5 N 0",
		"0,0,1,0,0,1/0,0,3,0,13,9 4-5 S 0",
	}
	rng := rand.New(rand.NewPCG(seed, 0xe9d))
	var out []env.State
	for len(out) < n {
		s, err := g.ParsePosition(starts[len(out)%len(starts)])
		if err != nil {
			panic(err)
		}
		for k := rng.IntN(8); k > 0 && !s.Terminal(); k-- {
			m := s.Legal()
			s.Play(m.Nth(rng.IntN(m.Count())))
		}
		if !s.Terminal() {
			out = append(out, s)
		}
	}
	return out
}

// TestAlphaBetaEqualsMinimaxDeep extends the minimax cross-check to depths
// 7 to 9, on random positions of every preset and on random walks from
// urim endgames with big pits, where the same position recurs at different
// distances from the root within one search (the table once mixed those
// depths; the walks catch it, about one search in thirty). One agent per
// depth searches the positions in turn with a small table, so entries from
// earlier positions and iterations are present, as in a game. The
// reference is checked against plain minimax at depth 7 on the first
// positions.
func TestAlphaBetaEqualsMinimaxDeep(t *testing.T) {
	n, walks := 12, 40 // random positions per preset and depth, endgame walks per depth: a few seconds in all
	if testing.Short() {
		n, walks = 3, 12
	}
	const inf = 1 << 30
	check := func(name string, depth int, positions []env.State) {
		t.Helper()
		ab := classic.NewAlphaBeta(classic.AlphaBetaConfig{Depth: depth, TTBits: 12})
		for i, s := range positions {
			a, err := ab.Act(&s)
			if err != nil {
				t.Fatal(err)
			}
			want := refAlphaBeta(&s, depth, -inf, inf)
			if depth == 7 && i < 2 {
				if m := minimax(&s, depth); m != want {
					t.Fatalf("%s depth %d, %v: reference alpha-beta %d, minimax %d", name, depth, s, want, m)
				}
			}
			if got := int(ab.LastSearch().Value); got != want {
				t.Fatalf("%s depth %d, %v: alpha-beta value %d, minimax %d", name, depth, s, got, want)
			}
			u := s
			u.Play(a)
			if v := -refAlphaBeta(&u, depth-1, -inf, inf); v != want {
				t.Fatalf("%s depth %d, %v: move %d is worth %d, the best is worth %d", name, depth, s, a, v, want)
			}
		}
	}
	for depth := 7; depth <= 9; depth++ {
		for _, name := range env.PresetNames() {
			g, _ := env.Preset(name)
			check(name, depth, agenttest.RandomPositions(g, n, uint64(100+depth)))
		}
		check("urim endgames", depth, endgameWalks(env.MustGame(env.Urim), walks, uint64(depth)))
	}
}
