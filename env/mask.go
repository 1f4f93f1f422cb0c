package env

import "math/bits"

// Mask is a set of actions: bit a is set when action a is in the set.
type Mask uint8

// Has reports whether action a is in m.
func (m Mask) Has(a int) bool { return a >= 0 && a < 8 && m>>uint(a)&1 == 1 }

// Count returns the number of actions in m.
func (m Mask) Count() int { return bits.OnesCount8(uint8(m)) }

// Nth returns the k-th smallest action in m (k from 0). It panics if m has
// k or fewer actions.
func (m Mask) Nth(k int) int {
	x := uint8(m)
	for ; k > 0; k-- {
		x &= x - 1
	}
	if x == 0 {
		panic("env: Mask.Nth out of range")
	}
	return bits.TrailingZeros8(x)
}

// Actions lists the actions in m in increasing order.
func (m Mask) Actions() []int {
	out := make([]int, 0, m.Count())
	for x := uint8(m); x != 0; x &= x - 1 {
		out = append(out, bits.TrailingZeros8(x))
	}
	return out
}

func trailingZeros(x uint8) int { return bits.TrailingZeros8(x) }
