package classic

import (
	"errors"

	"github.com/urim-rl/urim/agents"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/tablebase"
)

// The endgame tables of the tb= parameters of alphabeta, mcts and az: their
// loading and what a search reads from them.

// tables keeps the tables loaded by agent specs: a table is immutable, so
// every agent built from one file shares it.
var tables agents.Cache[*tablebase.Table]

// LoadTable loads a table file, or takes it from the cache of the tables
// loaded before (while the file is unchanged; a failed load is not kept).
func LoadTable(path string) (*tablebase.Table, error) {
	return tables.Load(path, tablebase.Load)
}

// tableValue returns what a table says of s, when it holds s: the final
// seeds of the player to move and of its opponent with the lower and with
// the upper bound.
func tableValue(t *tablebase.Table, s *env.State) (lo, hi [2]int, ok bool) {
	n := s.RowSeeds(0) + s.RowSeeds(1)
	if n > t.MaxSeeds() {
		return lo, hi, false
	}
	e, err := t.Probe(s)
	if err != nil {
		return lo, hi, false
	}
	me := s.ToMove()
	mine, theirs := s.Store(me), s.Store(1-me)
	lo = [2]int{mine + e.Lower, theirs + n - e.Lower}
	hi = [2]int{mine + e.Upper, theirs + n - e.Upper}
	return lo, hi, true
}

// tableScore is the alpha-beta score of s from a table: the final score of
// the game ended at each bound, averaged.
func tableScore(t *tablebase.Table, s *env.State) (int, bool) {
	lo, hi, ok := tableValue(t, s)
	if !ok {
		return 0, false
	}
	return (finalScore(lo) + finalScore(hi)) / 2, true
}

// finalScore scores final stores f (the mover's first): a win is worth
// WinScore plus the margin, a loss -WinScore plus the (negative) margin, a
// draw 0. terminalScore scores finished positions with it.
func finalScore(f [2]int) int {
	margin := f[0] - f[1]
	switch {
	case margin > 0:
		return WinScore + margin
	case margin < 0:
		return -WinScore + margin
	}
	return 0
}

// tableReward is the MCTS value of s from a table, when it holds s: the
// reward, for the player to move, of the game ended at each bound,
// averaged.
func tableReward(t *tablebase.Table, s *env.State, kind env.RewardKind) (float32, bool) {
	lo, hi, ok := tableValue(t, s)
	if !ok {
		return 0, false
	}
	total := s.Game().Total()
	return (reward(lo, total, kind) + reward(hi, total, kind)) / 2, true
}

// CheckTable reports a table built for rules other than g's: a search
// would find none of its positions in the table.
func CheckTable(t *tablebase.Table, g *env.Game) error {
	if t == nil {
		return nil
	}
	s := g.Start()
	if _, err := t.Probe(&s); errors.Is(err, tablebase.ErrMismatch) {
		return err
	}
	return nil
}

// reward is the reward of final stores f (the mover's first) for the mover.
func reward(f [2]int, total int, k env.RewardKind) float32 {
	switch k {
	case env.RewardWinLoss:
		switch {
		case f[0] > f[1]:
			return 1
		case f[0] < f[1]:
			return -1
		}
		return 0
	case env.RewardSeedMargin:
		return float32(f[0]-f[1]) / float32(total)
	}
	mp := env.MatchPoints(f, total)
	return float32(mp[0]-mp[1]) / 2
}

// WithTable makes cfg's search value the positions of the table file path
// (none if path is empty).
func WithTable(cfg *MCTSConfig, path string) error {
	if path == "" {
		return nil
	}
	t, err := LoadTable(path)
	if err != nil {
		return err
	}
	cfg.Table = t
	return nil
}

// TableTarget is what an endgame table teaches about a training position
// s: when the table holds s exactly (its bounds meet), value is the reward
// for the player to move of the game played out perfectly from s (with a
// fresh repetition history, as the table assumes) and best the actions
// that keep that value, when withBest is set (0 otherwise). From a table
// with stored best moves (tablebase.Table.HasStoredMoves) best is the
// position's, analysed with only itself as history, like the value: one
// probe ([tablebase.Table.BestSet]). Without them it is what
// [tablebase.Best] lists from s with its history, each move's analysis,
// many times a probe's cost. ok is false for a finished position, one the
// table does not hold, or one it holds only within bounds.
func TableTarget(t *tablebase.Table, s *env.State, kind env.RewardKind, withBest bool) (value float32, best env.Mask, ok bool) {
	if s.Terminal() {
		return 0, 0, false
	}
	lo, hi, held := tableValue(t, s)
	if !held || lo != hi {
		return 0, 0, false
	}
	if !withBest {
		return reward(lo, s.Game().Total(), kind), 0, true
	}
	if t.HasStoredMoves() {
		best, err := t.BestSet(s)
		if err != nil || best == 0 {
			return 0, 0, false
		}
		return reward(lo, s.Game().Total(), kind), best, true
	}
	moves, err := t.Moves(s)
	if err != nil {
		return 0, 0, false
	}
	for _, m := range tablebase.Best(moves) {
		best |= env.Mask(1) << m.Action
	}
	return reward(lo, s.Game().Total(), kind), best, true
}

// TableMargin is the score target an endgame table gives a training
// position s: when the table holds s exactly (its bounds meet), the final
// seed margin of the game played out perfectly from s (with a fresh
// repetition history, as the table assumes) for the player to move, over
// the rules' seeds: the seeds already in the stores plus the table's exact
// share of those on the board. The table stores seed counts, not only wins
// and losses, so the margin is exact wherever the value is. ok is false
// where TableTarget's is (a finished position, one the table does not hold,
// or holds only within bounds).
func TableMargin(t *tablebase.Table, s *env.State) (margin float32, ok bool) {
	if s.Terminal() {
		return 0, false
	}
	lo, hi, held := tableValue(t, s)
	if !held || lo != hi {
		return 0, false
	}
	return reward(lo, s.Game().Total(), env.RewardSeedMargin), true
}
