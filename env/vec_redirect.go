package env

import "fmt"

// Redirect makes the Vec write its observation rows into obs, and under
// AutoResetSameStep its final-observation rows into finalObs, instead of
// its own buffers, until Redirect(nil, nil) gives them back: it is how a
// caller that owns the memory (the C library behind Python's urim.VecEnv)
// gets the observations written where it wants them without a copy. Only
// the rows a call rewrites are written, so a caller redirects every call
// to the same buffers, which it starts from a copy of Obs (a Reset rewrites
// every row). Obs and FinalObs return the buffers in use; the Vec's own
// are not updated while redirected. Wrong lengths are an error and change
// nothing.
func (v *Vec) Redirect(obs, finalObs []float32) error {
	d := v.n * v.enc.dim
	if obs == nil {
		v.obs = v.ownObs()
		if v.hasFinal != nil {
			v.finalObs = v.ownFinal()
		}
		return nil
	}
	if len(obs) != d {
		return fmt.Errorf("env: Vec.Redirect: %d observation values for %d games of %d columns", len(obs), v.n, v.enc.dim)
	}
	if v.hasFinal != nil && len(finalObs) != d {
		return fmt.Errorf("env: Vec.Redirect: %d final-observation values for %d games of %d columns", len(finalObs), v.n, v.enc.dim)
	}
	v.ownObs()
	v.obs = obs
	if v.hasFinal != nil {
		v.ownFinal()
		v.finalObs = finalObs
	}
	return nil
}

// ownObs returns the Vec's own observation buffer, remembering it the
// first time it is called.
func (v *Vec) ownObs() []float32 {
	if v.own.obs == nil {
		v.own.obs = v.obs
	}
	return v.own.obs
}

func (v *Vec) ownFinal() []float32 {
	if v.own.finalObs == nil {
		v.own.finalObs = v.finalObs
	}
	return v.own.finalObs
}
