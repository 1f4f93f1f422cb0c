package tablebase

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/urim-rl/urim/env"
)

// ErrNoStoredMoves is returned by [Table.BestSet] for a table built
// without the stored analysis of its moves (format 1, or a build without
// Options.StoreMoves).
var ErrNoStoredMoves = errors.New("tablebase: the table stores no analysis of its moves (build it again with this version)")

// The stored best moves (format 2): for every position, the moves that
// [Table.Best] lists from the position analysed with only itself as
// history (status best or keeps-bound), as a mask over the mover's
// actions. That depends on the position alone, so it is computed once, at
// the build, and read in one probe: the policy target of
// training.tablebase_policy, and Table.Best from a fresh history.
const movesBytes = 1

// HasStoredMoves reports whether the table stores the analysis of every
// position's moves with only the position as history.
func (t *Table) HasStoredMoves() bool { return t.analysis != nil }

// BestSet returns, in one probe, the moves that the table calls best from
// s analysed with only itself as history (status best or keeps-bound, as
// Best(s.Fresh()) lists them), whatever the history of s: a property of
// the position, like the table's value. It is 0 for a finished game, and
// an error wrapping [ErrNoStoredMoves] for a table without them.
func (t *Table) BestSet(s *env.State) (env.Mask, error) {
	keep, ok, err := t.storedBest(s)
	if err != nil {
		return 0, err
	}
	if !ok {
		if s.Terminal() {
			return 0, nil
		}
		return 0, ErrNoStoredMoves
	}
	return keep, nil
}

// storedBest returns the stored best moves of s's position; ok is false
// for a finished game or a table without them.
func (t *Table) storedBest(s *env.State) (keep env.Mask, ok bool, err error) {
	if err := t.check(s); err != nil {
		return 0, false, err
	}
	if s.Terminal() || t.analysis == nil {
		return 0, false, nil
	}
	n := s.RowSeeds(0) + s.RowSeeds(1)
	b := canonical(s, t.r.p)
	g, in := t.lookup(&b, n, s.Store(s.ToMove()))
	if !in {
		return 0, false, fmt.Errorf("%w: %d seeds, stores %d-%d", ErrNotInTable, n, s.Store(0), s.Store(1))
	}
	return env.Mask(t.analysis[g]), true, nil
}

// analyse computes the stored analysis of every position of t (whose
// bounds and ranks are in place) with workers goroutines, layer by layer;
// progress, if set, is called after each layer.
func (t *Table) analyse(ctx context.Context, workers int, progress func(n int, done uint64)) ([]byte, error) {
	g, err := env.NewGame(t.rules)
	if err != nil {
		return nil, err
	}
	out := make([]byte, movesBytes*t.positions())
	for n := 0; n <= t.k; n++ {
		boards := t.x.boards(n)
		var next atomic.Uint64
		var wg sync.WaitGroup
		errs := make([]error, workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var sc scratch
				for errs[w] == nil {
					if err := ctx.Err(); err != nil {
						errs[w] = err
						return
					}
					first := next.Add(analyseChunk) - analyseChunk
					if first >= boards {
						return
					}
					errs[w] = t.analyseBoards(&sc, g, n, first, min(first+analyseChunk, boards), out)
				}
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		if progress != nil {
			progress(n, t.offset[n+1])
		}
	}
	return out, nil
}

// analyseChunk is the number of boards a worker of analyse takes at a
// time: positions cost from microseconds to milliseconds.
const analyseChunk = 256

// analyseBoards fills out, with the buffers of sc, for the boards first … last−1 of layer n.
func (t *Table) analyseBoards(sc *scratch, g *env.Game, n int, first, last uint64, out []byte) error {
	var b [16]uint8
	slots := t.r.slots(n)
	t.x.unrank(first, n, &b)
	for br := first; br < last; br++ {
		if br > first {
			t.x.next(&b)
		}
		if !t.r.valid(&b) {
			continue
		}
		for j := 0; j < slots; j++ {
			s, err := t.position(g, &b, 0, t.store(n, j))
			if err != nil {
				return err
			}
			if s.Terminal() {
				continue
			}
			keep, err := t.keepsWith(sc, &s)
			if err != nil {
				return err
			}
			out[t.offset[n]+br*uint64(slots)+uint64(j)] = byte(keep)
		}
	}
	return nil
}

// keeps returns the moves of s, a position with a fresh history, that keep
// its lower bound from it (status best or keeps-bound in [Table.Moves]),
// with only the checks that needs.
func (t *Table) keeps(s *env.State) (env.Mask, error) {
	return t.keepsWith(&scratch{}, s)
}

// keepsWith is keeps with the buffers of sc.
func (t *Table) keepsWith(sc *scratch, s *env.State) (env.Mask, error) {
	moves, err := t.appendFreshMoves(sc.moves, s)
	if err != nil || len(moves) == 0 {
		return 0, err
	}
	sc.moves = moves
	if err := t.inRunWith(sc, s, moves, wantKeep); err != nil {
		return 0, err
	}
	lo, _ := Bounds(moves)
	var keep env.Mask
	for _, m := range moves {
		if m.Lower == lo {
			keep |= env.Mask(1) << m.Action
		}
	}
	return keep, nil
}

// store returns the mover's store of slot j of a board with n seeds: under
// a majority rule the slot is the store; otherwise any split gives the
// same values, and the mover holds every captured seed.
func (t *Table) store(n, j int) int {
	if t.r.majority {
		return t.r.half - n + j
	}
	return t.r.total - n
}

// position returns the position of canonical board b (the mover's row
// first) with mover to move, the mover's store store and the rest of the
// captured seeds in the other store, with a fresh history.
func (t *Table) position(g *env.Game, b *[16]uint8, mover, store int) (env.State, error) {
	p := t.r.p
	var pits [16]uint8
	n := 0
	for i := 0; i < 2*p; i++ {
		pits[(i+mover*p)%(2*p)] = b[i] // canonical pit i is absolute pit i + mover·P
		n += int(b[i])
	}
	var stores [2]uint8
	stores[mover], stores[1-mover] = uint8(store), uint8(t.r.total-n-store)
	return g.NewPosition(&pits, stores, mover, 0)
}

// validMasks reports the first position whose stored best moves name an
// action beyond the row, or −1.
func validMasks(stored []byte, p int) int64 {
	for i, v := range stored {
		if v>>p != 0 {
			return int64(i)
		}
	}
	return -1
}
