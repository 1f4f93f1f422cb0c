package env

import (
	"fmt"
	"unsafe"
)

// VecOutputs names the caller's arrays a redirected Vec writes its per-game
// outputs into ([Vec.Bind]), N rows each, row-major. A nil entry keeps the
// Vec's own buffer (Obs … HasFinalObs) or is not written (the extras).
type VecOutputs struct {
	Obs         []float32 // N × ObsDim
	FinalObs    []float32 // N × ObsDim, AutoResetSameStep only
	HasFinalObs []bool    // N, AutoResetSameStep only
	Rewards     []float32 // N × 2, players 0 and 1
	Terminated  []bool    // N
	Truncated   []bool    // N
	ToMove      []int32   // N

	// Extras, written only when given: the reward of the player who moved
	// (N: Rewards' entry of the mover before the step, 0 on a step that
	// ends no game), the legal sets (N, as Legal) and the masks as bools
	// (N × P, true where legal).
	MoverRewards []float32
	Legal        []Mask
	BoolMask     []bool
	// NoMask stops the float32 Mask from being written while bound (Mask
	// then returns the Vec's buffer as the last unbound call left it).
	NoMask bool
}

// vecOwn keeps the Vec's own buffers while Bind points the outputs at the
// caller's, and the extras of the binding in force.
type vecOwn struct {
	obs, finalObs, rewards []float32
	terminated, truncated  []bool
	hasFinal               []bool
	toMove                 []int32
}

type vecExtras struct {
	mover  []float32
	legal  []Mask
	bmask  []byte // BoolMask as bytes of 0 or 1
	noMask bool
}

// Bind makes the Vec write its outputs into the arrays o names, instead of
// its own buffers, until Bind(nil) gives them back: it is how a caller that
// owns the memory (the C library behind Python's urim.VecEnv) gets every
// tensor written where it wants it without a copy. Only the rows a call
// rewrites are written (a step leaves the rows of finished games under
// AutoResetDisabled, ResetMask the games it does not restart, and
// FinalObs keeps the rows of games that did not end), so a caller binds
// every call to the same arrays, which start as copies of the Vec's
// tensors, or carries those rows over itself. The accessors return the
// arrays in use; the Vec's own are not updated while bound, but for the
// legal sets, which it keeps in any case (Legal, and what Step checks, stay
// valid after Bind(nil)). Wrong lengths are an error and change nothing.
func (v *Vec) Bind(o *VecOutputs) error {
	if o == nil {
		v.obs, v.finalObs, v.rewards = v.own.obs, v.own.finalObs, v.own.rewards
		v.terminated, v.truncated, v.hasFinal, v.toMove = v.own.terminated, v.own.truncated, v.own.hasFinal, v.own.toMove
		v.extra = vecExtras{}
		return nil
	}
	if err := v.checkOutputs(o); err != nil {
		return err
	}
	v.obs = orOwn(o.Obs, v.own.obs)
	v.rewards = orOwn(o.Rewards, v.own.rewards)
	v.terminated = orOwn(o.Terminated, v.own.terminated)
	v.truncated = orOwn(o.Truncated, v.own.truncated)
	v.toMove = orOwn(o.ToMove, v.own.toMove)
	if v.own.hasFinal != nil {
		v.finalObs = orOwn(o.FinalObs, v.own.finalObs)
		v.hasFinal = orOwn(o.HasFinalObs, v.own.hasFinal)
	}
	v.extra = vecExtras{mover: o.MoverRewards, legal: o.Legal, noMask: o.NoMask,
		bmask: unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(o.BoolMask))), len(o.BoolMask))}
	if o.BoolMask == nil {
		v.extra.bmask = nil
	}
	return nil
}

func orOwn[T any](s, own []T) []T {
	if s == nil {
		return own
	}
	return s
}

// checkOutputs reports an entry of o of the wrong length.
func (v *Vec) checkOutputs(o *VecOutputs) error {
	n, d := v.n, v.enc.dim
	same := v.own.hasFinal != nil
	for _, c := range []struct {
		name      string
		got, want int
		given     bool
	}{
		{"observation", len(o.Obs), n * d, o.Obs != nil},
		{"final-observation", len(o.FinalObs), n * d, same && o.FinalObs != nil},
		{"has-final", len(o.HasFinalObs), n, same && o.HasFinalObs != nil},
		{"reward", len(o.Rewards), 2 * n, o.Rewards != nil},
		{"terminated", len(o.Terminated), n, o.Terminated != nil},
		{"truncated", len(o.Truncated), n, o.Truncated != nil},
		{"to-move", len(o.ToMove), n, o.ToMove != nil},
		{"mover-reward", len(o.MoverRewards), n, o.MoverRewards != nil},
		{"legal", len(o.Legal), n, o.Legal != nil},
		{"bool-mask", len(o.BoolMask), n * v.p, o.BoolMask != nil},
	} {
		if c.given && c.got != c.want {
			return fmt.Errorf("env: Vec.Bind: %d %s values for %d games (want %d)", c.got, c.name, n, c.want)
		}
	}
	return nil
}

// Redirect is Bind of the observations alone: obs, and under
// AutoResetSameStep finalObs (which must then be given too); Redirect(nil,
// nil) is Bind(nil).
func (v *Vec) Redirect(obs, finalObs []float32) error {
	if obs == nil {
		return v.Bind(nil)
	}
	if len(obs) != v.n*v.enc.dim {
		return fmt.Errorf("env: Vec.Redirect: %d observation values for %d games of %d columns", len(obs), v.n, v.enc.dim)
	}
	if v.own.hasFinal != nil && len(finalObs) != len(obs) {
		return fmt.Errorf("env: Vec.Redirect: %d final-observation values for %d games of %d columns", len(finalObs), v.n, v.enc.dim)
	}
	return v.Bind(&VecOutputs{Obs: obs, FinalObs: finalObs})
}
