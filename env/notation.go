package env

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrNotation is wrapped by every error about a position's text form.
var ErrNotation = errors.New("env: bad position")

// String returns the position in urim's notation, which [Game.ParsePosition]
// reads back into the same State:
//
//	3,3,3,3,3,3/3,3,3,3,3,3 0-0 S 0
//
// Fields, separated by spaces: South's pits (0 … P-1) and North's pits
// (P … 2P-1), both in sowing order, split by a slash; the stores of South
// and North; the player to move (S or N); the ply. When moves have been
// played since the last capture, a fifth field keeps what the repetition
// rule needs: "h:" followed by the board after the last capture (or at the
// start), a colon, and the actions played since, separated by dots:
//
//	3,3,3,0,4,4/4,3,0,4,4,4 0-0 S 2 h:3,3,3,3,3,3/3,3,3,3,3,3:3.2
func (s State) String() string {
	if s.g == nil {
		return "<no position>"
	}
	var b strings.Builder
	s.writeBoard(&b, s.pits)
	fmt.Fprintf(&b, " %d-%d %c %d", s.stores[0], s.stores[1], "SN"[s.toMove], s.ply)
	if s.hist.quiet() > 0 {
		b.WriteString(" h:")
		s.writeBoard(&b, s.hist.anchor)
		b.WriteByte(':')
		for i, a := range s.hist.actions() {
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(strconv.Itoa(a))
		}
	}
	return b.String()
}

func (s *State) writeBoard(b *strings.Builder, pits [16]uint8) {
	for i := 0; i < s.g.n; i++ {
		switch {
		case i == s.g.p:
			b.WriteByte('/')
		case i > 0:
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(pits[i])))
	}
}

// ParsePosition reads a position in the notation of [State.String] under the
// rules of g. It checks that the pits fit the board, that no pit is over
// capacity, that the seeds add up to T, and that the history replays without
// a capture into the stated position.
func (g *Game) ParsePosition(text string) (State, error) {
	bad := func(format string, args ...any) (State, error) {
		return State{}, fmt.Errorf("%w %q: %s", ErrNotation, text, fmt.Sprintf(format, args...))
	}
	f := strings.Fields(text)
	if len(f) != 4 && len(f) != 5 {
		return bad("want 4 or 5 fields (pits, stores, player to move, ply [, h:history]), got %d", len(f))
	}
	s := State{g: g}
	if err := g.parseBoard(f[0], &s.pits); err != nil {
		return bad("%v", err)
	}
	st0, st1, ok := strings.Cut(f[1], "-")
	if !ok {
		return bad("stores %q: want SOUTH-NORTH, such as 4-0", f[1])
	}
	for p, txt := range [2]string{st0, st1} {
		v, err := strconv.Atoi(txt)
		if err != nil || v < 0 || v > g.total {
			return bad("store %q: want a count from 0 to %d", txt, g.total)
		}
		s.stores[p] = uint8(v)
	}
	switch f[2] {
	case "S", "s", "0":
		s.toMove = 0
	case "N", "n", "1":
		s.toMove = 1
	default:
		return bad("player to move %q: want S or N", f[2])
	}
	ply, err := strconv.ParseUint(f[3], 10, 32)
	if err != nil {
		return bad("ply %q: want a whole number", f[3])
	}
	s.ply = uint32(ply)
	sum := int(s.stores[0]) + int(s.stores[1])
	for i := 0; i < g.n; i++ {
		sum += int(s.pits[i])
	}
	if sum != g.total {
		return bad("the pits and stores hold %d seeds, the rules play with %d", sum, g.total)
	}
	if len(f) == 4 {
		s.settle(-1, false)
		return s, nil
	}
	return g.replayHistory(s, f[4], bad)
}

// replayHistory rebuilds target's history from the "h:" field and checks that
// it leads to target.
func (g *Game) replayHistory(target State, field string, bad func(string, ...any) (State, error)) (State, error) {
	body, ok := strings.CutPrefix(field, "h:")
	board, movesText, ok2 := strings.Cut(body, ":")
	if !ok || !ok2 || movesText == "" {
		return bad("history %q: want h:<board>:<actions separated by dots>", field)
	}
	parts := strings.Split(movesText, ".")
	if uint32(len(parts)) > target.ply {
		return bad("history has %d moves but the ply is %d", len(parts), target.ply)
	}
	s := State{g: g, stores: target.stores, toMove: target.toMove ^ uint8(len(parts)&1), ply: target.ply - uint32(len(parts))}
	if err := g.parseBoard(board, &s.pits); err != nil {
		return bad("history board: %v", err)
	}
	s.settle(-1, false)
	for i, txt := range parts {
		a, err := strconv.Atoi(txt)
		if err != nil {
			return bad("history move %d: %q is not an action", i+1, txt)
		}
		next, err := s.Apply(a)
		if err != nil {
			return bad("history move %d: %v", i+1, err)
		}
		if next.stores != s.stores {
			return bad("history move %d (%d) captures; the history starts after the last capture", i+1, a)
		}
		s = next
	}
	if !s.SamePosition(&target) {
		return bad("the history leads to %s, not to the stated position", s.board())
	}
	return s, nil
}

func (s *State) board() string {
	var b strings.Builder
	s.writeBoard(&b, s.pits)
	return b.String()
}

// parseBoard reads "south/north" pits into pits.
func (g *Game) parseBoard(text string, pits *[16]uint8) error {
	south, north, ok := strings.Cut(text, "/")
	if !ok {
		return fmt.Errorf("pits %q: want SOUTH/NORTH rows separated by a slash", text)
	}
	for row, txt := range [2]string{south, north} {
		cells := strings.Split(txt, ",")
		if len(cells) != g.p {
			return fmt.Errorf("row %q has %d pits, the rules have %d per row", txt, len(cells), g.p)
		}
		for i, c := range cells {
			v, err := strconv.Atoi(c)
			limit := min(int(g.capacity), g.total)
			if err != nil || v < 0 || v > limit {
				return fmt.Errorf("pit %q: want a count from 0 to %d", c, limit)
			}
			pits[row*g.p+i] = uint8(v)
		}
	}
	return nil
}
