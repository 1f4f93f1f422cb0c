package env

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrIllegal is wrapped by every error about an action that cannot be played.
var ErrIllegal = errors.New("env: illegal action")

// ErrGameOver is wrapped by the error for an action after the end of the game.
var ErrGameOver = errors.New("env: the game is over")

// Apply returns the state after the player to move plays action a. It reports
// an error, naming the action and the legal ones, when a is out of range or
// not legal, or when the game is over; s itself is never changed.
func (s State) Apply(a int) (State, error) {
	if err := s.Check(a); err != nil {
		return s, err
	}
	s.Play(a)
	return s, nil
}

// Check reports why action a cannot be played in s, or nil if it can.
func (s *State) Check(a int) error {
	if s.end != Ongoing {
		return fmt.Errorf("%w (%s): no action can be played", ErrGameOver, s.end)
	}
	if a < 0 || a >= s.g.p || !s.legal.Has(a) {
		return fmt.Errorf("%w %d: %s (legal: %v)", ErrIllegal, a, s.illegalWhy(a), s.legal.Actions())
	}
	return nil
}

// illegalWhy says why action a of an ongoing game is illegal: the one
// wording of Check and Vec.Step's ActionError.
func (s *State) illegalWhy(a int) string {
	switch {
	case a < 0 || a >= s.g.p:
		return fmt.Sprintf("out of range 0..%d", s.g.p-1)
	case s.pits[int(s.toMove)*s.g.p+a] > 0:
		return "it does not feed the opponent's empty row"
	}
	return "its pit is empty"
}

// Play makes the player to move play action a, in place. It allocates nothing
// (except, rarely, a block of repetition history after a long run without a
// capture). It panics if a is not legal: callers pick from [State.Legal].
func (s *State) Play(a int) {
	if !s.legal.Has(a) {
		panic(fmt.Sprintf("env: Play(%d) with legal actions %v", a, s.legal.Actions()))
	}
	g := s.g
	mover := int(s.toMove)
	last := s.sow(mover*g.p + a)
	captured := s.capture(mover, last)
	s.toMove ^= 1
	s.ply++
	s.settle(a, captured)
}

// sow empties pit o and sows its seeds forward, skipping the origin and full
// pits. It returns the pit that got the last seed.
func (s *State) sow(o int) int { return sowPits(s.g, &s.pits, o) }

// sowPits is sow on a bare board; the repetition check replays with it.
//
// Without a lap and without a full pit on the way (the common case), every
// pit after the origin gets one seed: the board is then updated as two
// words, one add each, and stored as two words, so the word loads that
// follow (the repetition key, the legal actions) read them straight from
// the store buffer instead of waiting for byte stores to drain.
func sowPits(g *Game, pits *[16]uint8, o int) int {
	n := int(pits[o])
	if n < g.n && g.sowWords {
		lo := binary.LittleEndian.Uint64(pits[0:8])
		hi := binary.LittleEndian.Uint64(pits[8:16])
		// The targets o+1 … o+n, wrapping past the last pit.
		end := o + n + 1
		from, to, wrap := &byteOnes[o+1], &byteOnes[min(end, g.n)], &byteOnes[max(end-g.n, 0)]
		mLo := to[0]&^from[0] | wrap[0]
		mHi := to[1]&^from[1] | wrap[1]
		// A byte b < 128 holds at least capacity c ≤ 128 exactly when
		// b + 128 - c sets its top bit (g.fullAdd is 0 when no pit can fill).
		const top = 0x8080808080808080
		if (((lo+g.fullAdd)&top)>>7&mLo | ((hi+g.fullAdd)&top)>>7&mHi) == 0 {
			at := &byteOnes[o]
			lo &^= (from[0] &^ at[0]) * 0xff // empty the origin
			hi &^= (from[1] &^ at[1]) * 0xff
			binary.LittleEndian.PutUint64(pits[0:8], lo+mLo)
			binary.LittleEndian.PutUint64(pits[8:16], hi+mHi)
			last := o + n
			if last >= g.n {
				last -= g.n
			}
			return last
		}
	}
	return Sow(pits, g.n, o, g.capacity, nil)
}

// Sow empties pit o of a board of n pits and sows its seeds forward, one a
// pit, wrapping past the last pit and skipping pit o and the pits that hold
// capacity seeds (255: no limit). It returns the pit that got the last
// seed; path, when not nil, gets every pit sown, in order. It is the one
// sowing loop: the engine's moves (past their fast path), [State.Trace] and
// the endgame table's solver sow with it.
func Sow(pits *[16]uint8, n, o int, capacity uint8, path *[]int) int {
	seeds := pits[o]
	pits[o] = 0
	i := o
	for seeds > 0 {
		i++
		if i == n {
			i = 0
		}
		if i == o || pits[i] >= capacity {
			continue
		}
		pits[i]++
		seeds--
		if path != nil {
			*path = append(*path, i)
		}
	}
	return i
}

// byteOnes[k] is the 16-byte word, as its low and high halves, whose bytes
// 0 … k-1 are 1 and the others 0.
var byteOnes = func() (t [17][2]uint64) {
	for k := range t {
		for i := range k {
			t[k][i/8] |= 1 << (8 * (i % 8))
		}
	}
	return t
}()

// capture applies the capture rule for a move by mover whose last seed fell
// in pit last, and reports whether seeds were captured.
func (s *State) capture(mover, last int) bool {
	g := s.g
	lo := (1 - mover) * g.p // first pit of the opponent's row
	hi := lo + g.p          // one past its last pit
	if last < lo || last >= hi || g.trigger>>s.pits[last]&1 == 0 {
		return false
	}
	taken := int(s.pits[last])
	first := last // the chain runs back from last to first
	for first-1 >= lo && g.chain>>s.pits[first-1]&1 == 1 {
		first--
		taken += int(s.pits[first])
	}
	if !g.slamOK && first == lo {
		// Would the capture leave the opponent's row empty? Pits from lo to
		// last are all taken; a grand slam also needs nothing beyond last.
		slam := true
		for i := last + 1; i < hi; i++ {
			if s.pits[i] != 0 {
				slam = false
				break
			}
		}
		if slam {
			return false
		}
	}
	for i := first; i <= last; i++ {
		s.pits[i] = 0
	}
	s.stores[mover] += uint8(taken)
	return true
}

// settle brings the bookkeeping up to date after action a changed the board
// (a < 0 for a fresh position): the repetition history, the legal actions of
// the player to move, and whether the game has ended (checked in this order:
// majority, no legal move, repetition, ply cap).
func (s *State) settle(a int, captured bool) {
	g := s.g
	k := s.key()
	repeated := false
	if captured || a < 0 {
		s.hist.restart(k, &s.pits)
	} else {
		w, b := bloomBits(k)
		seen := s.hist.bloom[w]&b == b // tested before k itself is marked
		s.hist.record(a, w, b)
		repeated = seen && s.repeats()
	}
	s.legal = s.legalMask()
	switch {
	case g.majority && (int(s.stores[0]) >= g.majorityAt || int(s.stores[1]) >= g.majorityAt ||
		(int(s.stores[0])*2 == g.total && int(s.stores[1])*2 == g.total)):
		s.end = EndMajority
	case s.legal == 0:
		s.end = EndNoLegalMove
	case repeated:
		s.end = EndRepetition
	case g.maxPlies > 0 && int(s.ply) >= g.maxPlies:
		s.end = EndPlyCap
	default:
		s.end = Ongoing
		return
	}
	s.legal = 0
}

// legalMask computes the legal actions of the player to move, feeding
// included.
func (s *State) legalMask() Mask {
	g := s.g
	own := int(s.toMove) * g.p
	opp := g.p - own // first pit of the opponent's row
	// Each row is read as one word (P ≤ 7 bytes), cut from the board's two
	// aligned halves: the sowing stored them as such, so the loads take
	// them from the store buffer (a load across the two stores would wait).
	lo := binary.LittleEndian.Uint64(s.pits[0:8])
	hi := binary.LittleEndian.Uint64(s.pits[8:16])
	if rowWord(lo, hi, opp)&g.rowBytes != 0 {
		return nonZeroBytes(rowWord(lo, hi, own) & g.rowBytes)
	}
	// Feeding: the move must sow at least one seed into the empty row. The
	// seeds first fill the own pits after the origin that are not full.
	var m Mask
	room := 0 // own pits after a that take a seed
	for a := g.p - 1; a >= 0; a-- {
		if int(s.pits[own+a]) > room {
			m |= 1 << uint(a)
		}
		if s.pits[own+a] < g.capacity {
			room++
		}
	}
	return m
}

// rowWord returns the 8 bytes of the board from byte off (0 to 7) on, from
// its low and high halves.
func rowWord(lo, hi uint64, off int) uint64 {
	// hi<<1<<(63-8·off) is hi<<(64-8·off), 0 at off 0; the masks tell the
	// compiler that no shift reaches 64.
	return lo>>(8*uint(off)&63) | hi<<1<<((63-8*uint(off))&63)
}

// nonZeroBytes returns a mask with bit i set when byte i of x is not zero.
func nonZeroBytes(x uint64) Mask {
	const low7 = 0x7f7f7f7f7f7f7f7f
	high := ((x & low7) + low7 | x) &^ low7 // top bit of each non-zero byte
	// Gather the top bits (byte i's bit 7) into bits 56+i; the shifted terms
	// cannot collide, so the multiply adds no carries.
	return Mask((high >> 7) * 0x0102040810204080 >> 56)
}
