package env

import "encoding/binary"

// State is one position of a game together with what the rules need to
// continue it: pits, stores, player to move, ply, and the positions seen since
// the last capture. It is a plain value: `t := s` is a full, independent copy.
// The zero State is not a position; get one from [Game.Start] or
// [Game.ParsePosition].
type State struct {
	g      *Game
	pits   [16]uint8 // 2P used; the rest stay 0 so the repetition key reads 16 bytes
	stores [2]uint8
	toMove uint8
	end    EndReason
	legal  Mask // legal actions of the player to move; 0 once the game has ended
	ply    uint32
	hist   history
}

// Game returns the game s is played under.
func (s *State) Game() *Game { return s.g }

// Pit returns the seeds in pit i (absolute index, 0 … 2P-1).
func (s *State) Pit(i int) int { return int(s.pits[i]) }

// Pits returns the 2P pit counts in absolute order.
func (s *State) Pits() []int {
	out := make([]int, s.g.n)
	for i := range out {
		out[i] = int(s.pits[i])
	}
	return out
}

// Store returns the seeds captured so far by player p.
func (s *State) Store(p int) int { return int(s.stores[p]) }

// ToMove returns the player to move, 0 or 1.
func (s *State) ToMove() int { return int(s.toMove) }

// Ply returns the number of moves played since the start.
func (s *State) Ply() int { return int(s.ply) }

// Quiet returns the number of moves played since the last capture.
func (s *State) Quiet() int { return s.hist.quiet() }

// Legal returns the legal actions of the player to move: empty once the game
// has ended.
func (s *State) Legal() Mask { return s.legal }

// Terminal reports whether the game has ended (for any reason, including the
// ply cap).
func (s *State) Terminal() bool { return s.end != Ongoing }

// Truncated reports whether the game was cut by the ply cap rather than ended
// by the rules.
func (s *State) Truncated() bool { return s.end == EndPlyCap }

// Reason returns why the game ended, or Ongoing.
func (s *State) Reason() EndReason { return s.end }

// RowSeeds returns the seeds on player p's row.
func (s *State) RowSeeds(p int) int {
	lo := p * s.g.p
	sum := 0
	for i := lo; i < lo+s.g.p; i++ {
		sum += int(s.pits[i])
	}
	return sum
}

// key is the repetition key of the position: the pits and the player to move.
// The stores need no place in it because they cannot change between two
// captures, and the history is cleared at every capture.
func (s *State) key() posKey {
	return posKey{
		binary.LittleEndian.Uint64(s.pits[0:8]),
		binary.LittleEndian.Uint64(s.pits[8:16]) ^ uint64(s.toMove)<<63,
	}
}

// Hash returns a 64-bit hash of the position (pits, stores, player to move)
// for transposition tables. Equal positions hash equal; the history since the
// last capture is not part of it.
func (s *State) Hash() uint64 {
	k := s.key()
	h := k.lo*0x9E3779B97F4A7C15 ^ k.hi
	h ^= uint64(s.stores[0])<<40 | uint64(s.stores[1])<<48
	h ^= h >> 31
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 29
	return h
}

// SamePosition reports whether s and t have the same pits, stores and player
// to move (their histories may differ).
func (s *State) SamePosition(t *State) bool {
	return s.pits == t.pits && s.stores == t.stores && s.toMove == t.toMove
}
