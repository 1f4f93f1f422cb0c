package env

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"codeberg.org/sbinet/npyio"
	"codeberg.org/sbinet/npyio/npz"
)

// vecTensor is one batch tensor as npyio writes it: a 2-D value (a slice of
// rows aliasing the flat buffer) so that the .npy header carries the shape.
type vecTensor struct {
	name  string
	value any
}

// TensorNames lists the tensors WriteNPY, WriteNPZ and SaveNPY write, in
// order: obs, mask, rewards, terminated, truncated, to_move, and, under
// AutoResetSameStep, final_obs and has_final_obs.
func (v *Vec) TensorNames() []string {
	ts := v.tensors()
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.name
	}
	return names
}

func (v *Vec) tensors() []vecTensor {
	ts := []vecTensor{
		{"obs", vecRows(v.obs, v.enc.dim)},
		{"mask", vecRows(v.mask, v.p)},
		{"rewards", vecRows(v.rewards, 2)},
		{"terminated", v.terminated},
		{"truncated", v.truncated},
		{"to_move", v.toMove},
	}
	if v.finalObs != nil {
		ts = append(ts, vecTensor{"final_obs", vecRows(v.finalObs, v.enc.dim)},
			vecTensor{"has_final_obs", v.hasFinal})
	}
	return ts
}

// vecRows views a flat row-major buffer as rows of width w.
func vecRows[T any](flat []T, w int) [][]T {
	rows := make([][]T, len(flat)/w)
	for i := range rows {
		rows[i] = flat[i*w : (i+1)*w : (i+1)*w]
	}
	return rows
}

// WriteNPY writes the named tensor (see TensorNames) to w in NumPy's .npy
// format, with its shape: (N, ObsDim) float32 for obs, (N, P) float32 for
// mask, (N, 2) float32 for rewards, (N,) bool for the flags and (N,) int32
// for to_move.
func (v *Vec) WriteNPY(w io.Writer, name string) error {
	for _, t := range v.tensors() {
		if t.name == name {
			bw := bufio.NewWriter(w)
			if err := npyio.Write(bw, t.value); err != nil {
				return fmt.Errorf("env: writing %s as .npy: %w", name, err)
			}
			return bw.Flush()
		}
	}
	return fmt.Errorf("env: no tensor %q (known: %v)", name, v.TensorNames())
}

// WriteNPZ writes every tensor to w as a NumPy .npz archive whose entries
// are NAME.npy; numpy.load reads it as a mapping from the names of
// TensorNames to arrays.
func (v *Vec) WriteNPZ(w io.Writer) error {
	bw := bufio.NewWriter(w)
	zw := npz.NewWriter(bw)
	for _, t := range v.tensors() {
		if err := zw.Write(t.name+".npy", t.value); err != nil {
			return fmt.Errorf("env: writing the batch as .npz: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("env: writing the batch as .npz: %w", err)
	}
	return bw.Flush()
}

// SaveNPY writes every tensor to its own file dir/NAME.npy, creating dir if
// needed.
func (v *Vec) SaveNPY(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("env: saving the batch: %w", err)
	}
	for _, name := range v.TensorNames() {
		path := filepath.Join(dir, name+".npy")
		f, err := os.Create(path)
		if err != nil {
			return fmt.Errorf("env: saving the batch: %w", err)
		}
		err = v.WriteNPY(f, name)
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("env: saving %s: %w", path, cerr)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
