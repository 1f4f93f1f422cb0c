package env

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/urim-rl/urim/internal/atomicfile"
	"github.com/urim-rl/urim/internal/numpy"
)

// TensorNames lists the tensors WriteNPY, WriteNPZ and SaveNPY write, in
// order: obs, mask, rewards, terminated, truncated, to_move, and, under
// AutoResetSameStep, final_obs and has_final_obs.
func (v *Vec) TensorNames() []string {
	ts := v.tensors()
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return names
}

// tensors returns the batch's tensors, aliasing the Vec's buffers.
func (v *Vec) tensors() []numpy.Array {
	n := v.Len()
	ts := []numpy.Array{
		{Name: "obs", Shape: []int{n, v.enc.dim}, Data: v.obs},
		{Name: "mask", Shape: []int{n, v.p}, Data: v.mask},
		{Name: "rewards", Shape: []int{n, 2}, Data: v.rewards},
		{Name: "terminated", Shape: []int{n}, Data: v.terminated},
		{Name: "truncated", Shape: []int{n}, Data: v.truncated},
		{Name: "to_move", Shape: []int{n}, Data: v.toMove},
	}
	if v.finalObs != nil {
		ts = append(ts, numpy.Array{Name: "final_obs", Shape: []int{n, v.enc.dim}, Data: v.finalObs},
			numpy.Array{Name: "has_final_obs", Shape: []int{n}, Data: v.hasFinal})
	}
	return ts
}

// WriteNPY writes the named tensor (see TensorNames) to w in NumPy's .npy
// format, with its shape: (N, ObsDim) float32 for obs, (N, P) float32 for
// mask, (N, 2) float32 for rewards, (N,) bool for the flags and (N,) int32
// for to_move.
func (v *Vec) WriteNPY(w io.Writer, name string) error {
	for _, t := range v.tensors() {
		if t.Name == name {
			if err := numpy.WriteNPY(w, t); err != nil {
				return fmt.Errorf("env: writing %s as .npy: %w", name, err)
			}
			return nil
		}
	}
	return fmt.Errorf("env: no tensor %q (known: %v)", name, v.TensorNames())
}

// WriteNPZ writes every tensor to w as a NumPy .npz archive whose entries
// are NAME.npy; numpy.load reads it as a mapping from the names of
// TensorNames to arrays.
func (v *Vec) WriteNPZ(w io.Writer) error {
	if err := numpy.WriteNPZ(w, v.tensors()); err != nil {
		return fmt.Errorf("env: writing the batch as .npz: %w", err)
	}
	return nil
}

// SaveNPY writes every tensor to its own file dir/NAME.npy, each atomically
// (internal/atomicfile), creating dir if needed.
func (v *Vec) SaveNPY(dir string) error {
	for _, name := range v.TensorNames() {
		path := filepath.Join(dir, name+".npy")
		if err := atomicfile.WriteMkdir(path, func(w io.Writer) error { return v.WriteNPY(w, name) }); err != nil {
			return fmt.Errorf("env: saving the batch: %w", err)
		}
	}
	return nil
}
