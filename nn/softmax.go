package nn

import (
	"math"
	"math/bits"

	"github.com/urim-rl/urim/env"
)

// MaskedSoftmax writes into p the softmax of logits/temp over the legal
// actions and 0 for the others: illegal actions get exactly nothing. temp
// must be positive. It is the softmax of the search's priors, the neural
// agent's sampling and the policies the training loops record (the losses
// build theirs in float64 on MaskedExp, and PPO samples its moves in float64
// too); it allocates nothing, and its exponential (expNeg) is within 2e-7
// relative of math.Exp's.
func MaskedSoftmax(p, logits []float32, legal env.Mask, temp float32) {
	top := float32(math.Inf(-1))
	for m := legal; m != 0; m &= m - 1 {
		top = max(top, logits[bits.TrailingZeros8(uint8(m))])
	}
	clear(p)
	// The sum runs over the legal actions in increasing order.
	var sum float32
	for m := legal; m != 0; m &= m - 1 {
		a := bits.TrailingZeros8(uint8(m))
		d := logits[a] - top
		if temp != 1 {
			d /= temp
		}
		// expNeg, inlined: the exponentials of the actions, each a long
		// chain of dependent operations, then overlap.
		x := float32(0)
		if d >= -87 {
			x = expNeg2f(expNegK(d))
		} else if d != d {
			x = d
		}
		p[a] = x
		sum += x
	}
	for m := legal; m != 0; m &= m - 1 {
		p[bits.TrailingZeros8(uint8(m))] /= sum
	}
}

const log2e = 1.4426950408889634

// expNeg returns e^x for x ≤ 0 (and NaN for NaN) within 2e-7 relative,
// exactly 1 at 0, several times faster than math.Exp: e^x = 2^k · 2^f with
// k = round(x·log2 e) (half away from zero) and |f| ≤ ½, 2^f by its
// degree-6 Taylor polynomial.
func expNeg(x float32) float32 {
	if !(x >= -87) { // underflow, or NaN
		if x != x {
			return x
		}
		return 0
	}
	return expNeg2f(expNegK(x)) // two parts, each small enough to inline
}

// expNegK returns t = x·log2 e and n = -round(t), round as math.Round.
// It computes round(-t) with the Floor instruction: -t - ⌊-t⌋ is exact, so
// a tie goes away from zero as math.Round's does; rounding up is an integer
// select, not a branch.
func expNegK(x float32) (t float64, n int64) {
	t = float64(x) * log2e
	y := -t
	r := math.Floor(y)
	n = int64(r) // 0 to 126
	if y-r >= 0.5 {
		n++
	}
	return t, n
}

// expNeg2f returns 2^f · 2^-n for f = (t + n)·ln 2 in [-ln2/2, ln2/2], 2^f
// by its degree-6 Taylor polynomial.
func expNeg2f(t float64, n int64) float32 {
	f := (t + float64(n)) * math.Ln2
	p := 1 + f*(1+f*(1.0/2+f*(1.0/6+f*(1.0/24+f*(1.0/120+f*(1.0/720))))))
	return float32(p * math.Float64frombits(uint64(1023-n)<<52))
}

// MaskEntry is the type of a mask's entries: a bool (the row schema's,
// [env.Rows]) or a float32 that is 1 for a legal action and 0 for an
// illegal one ([env.Vec]'s, PPO's).
type MaskEntry interface{ ~bool | ~float32 }

// MaskedExp writes e^(z_a − top) into p for the legal actions (m_a true or
// nonzero) and 0 for the others, top being the largest legal logit, and returns top and
// the sum of p, in float64 and in action order. With no legal action top is
// −Inf and the sum 0. The losses build their log-softmax on it: the log of
// the probability of a is z_a − top − log(sum).
func MaskedExp[M MaskEntry](p []float64, z []float32, m []M) (top, sum float64) {
	var illegal M // false, or 0
	top = math.Inf(-1)
	for a, v := range z {
		if m[a] != illegal && float64(v) > top {
			top = float64(v)
		}
	}
	for a, v := range z {
		p[a] = 0
		if m[a] != illegal {
			p[a] = math.Exp(float64(v) - top)
			sum += p[a]
		}
	}
	return top, sum
}
