package env

// Perft counts the move sequences of exactly depth plies from s: the leaves
// of the game tree cut at that depth. A game that ends earlier contributes
// nothing below its end. Perft(s, 0) is 1. The counts are regression numbers
// for the rules: any change to them is a change of behaviour.
func Perft(s *State, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	m := s.Legal()
	if depth == 1 {
		return uint64(m.Count())
	}
	var n uint64
	for x := uint8(m); x != 0; x &= x - 1 {
		t := *s
		t.Play(trailingZeros(x))
		n += Perft(&t, depth-1)
	}
	return n
}
