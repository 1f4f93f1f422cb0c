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
	if k < 0 || k >= m.Count() {
		panic("env: Mask.Nth out of range")
	}
	return m.nth(k)
}

// nth is Nth without the range check: 0 past the end.
func (m Mask) nth(k int) int {
	// The masks only drop bounds checks: legal masks are below 2⁷, k below 7.
	return int(nthAction[m&(1<<MaxActions-1)][k&7])
}

// nthAction[m][k] is the k-th smallest action of mask m (0 past the end).
var nthAction = func() (t [1 << MaxActions][8]uint8) {
	for m := range t {
		k := 0
		for a := 0; a < MaxActions; a++ {
			if m>>a&1 == 1 {
				t[m][k] = uint8(a)
				k++
			}
		}
	}
	return t
}()

// Actions lists the actions in m in increasing order.
func (m Mask) Actions() []int {
	out := make([]int, 0, m.Count())
	for x := uint8(m); x != 0; x &= x - 1 {
		out = append(out, bits.TrailingZeros8(x))
	}
	return out
}

func trailingZeros(x uint8) int { return bits.TrailingZeros8(x) }
