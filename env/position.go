package env

import "fmt"

// NewPosition returns the position of rules g with the given pits (South's
// row first, then North's, each from its own first pit: the order of
// [State.Pits]), stores (South's, North's), player to move (0 South, 1
// North) and ply, with a fresh repetition history, as [Game.ParsePosition]
// reads a position without an "h:" field. It checks what ParsePosition
// checks (no pit over capacity, the seeds adding up to T) and does not
// allocate unless it returns an error, so samplers (the endgame table's)
// can build positions in a training step.
func (g *Game) NewPosition(pits *[16]uint8, stores [2]uint8, toMove int, ply uint32) (State, error) {
	if toMove != 0 && toMove != 1 {
		return State{}, fmt.Errorf("%w: player to move %d: want 0 (South) or 1 (North)", ErrNotation, toMove)
	}
	s := State{g: g, stores: stores, toMove: uint8(toMove), ply: ply}
	limit := min(int(g.capacity), g.total)
	sum := int(stores[0]) + int(stores[1])
	for i := 0; i < g.n; i++ {
		v := int(pits[i])
		if v > limit {
			return State{}, fmt.Errorf("%w: pit %d holds %d seeds, the most is %d", ErrNotation, i, v, limit)
		}
		s.pits[i] = pits[i]
		sum += v
	}
	if sum != g.total {
		return State{}, fmt.Errorf("%w: the pits and stores hold %d seeds, the rules play with %d", ErrNotation, sum, g.total)
	}
	s.settle(-1, false)
	return s, nil
}
