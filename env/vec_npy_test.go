package env

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"codeberg.org/sbinet/npyio"
	"codeberg.org/sbinet/npyio/npz"
)

// vecNPYVec returns a batch of 5 games after a few steps, under
// AutoResetSameStep so that every tensor is present.
func vecNPYVec(t *testing.T) *Vec {
	v := newTestVec(t, MustGame(Urim), 5, VecOptions{Workers: 2, AutoReset: AutoResetSameStep, OpeningPlies: 3, Seed: 4})
	actions := make([]int32, v.Len())
	rng := uint64(8)
	for range 4 {
		RandomActions(actions, v.Legal(), &rng)
		if err := v.Step(actions); err != nil {
			t.Fatal(err)
		}
	}
	return v
}

func TestVecWriteNPY(t *testing.T) {
	v := vecNPYVec(t)
	// The header quotes the dtype as Python does.
	want := map[string]struct {
		dtype string
		shape []int
	}{
		"obs":           {"'<f4'", []int{5, 17}},
		"mask":          {"'<f4'", []int{5, 6}},
		"rewards":       {"'<f4'", []int{5, 2}},
		"terminated":    {"'|b1'", []int{5}},
		"truncated":     {"'|b1'", []int{5}},
		"to_move":       {"'<i4'", []int{5}},
		"final_obs":     {"'<f4'", []int{5, 17}},
		"has_final_obs": {"'|b1'", []int{5}},
	}
	if names := v.TensorNames(); len(names) != len(want) {
		t.Fatalf("tensors %v", names)
	}
	for name, w := range want {
		var buf bytes.Buffer
		if err := v.WriteNPY(&buf, name); err != nil {
			t.Fatal(err)
		}
		r, err := npyio.NewReader(&buf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Header.Descr.Type != w.dtype || !reflect.DeepEqual(r.Header.Descr.Shape, w.shape) {
			t.Fatalf("%s: dtype %s shape %v, want %s %v", name, r.Header.Descr.Type, r.Header.Descr.Shape, w.dtype, w.shape)
		}
		switch name {
		case "obs":
			var got []float32
			if err := r.Read(&got); err != nil || !reflect.DeepEqual(got, v.Obs()) {
				t.Fatalf("obs read back %v (%v), want %v", got, err, v.Obs())
			}
		case "to_move":
			var got []int32
			if err := r.Read(&got); err != nil || !reflect.DeepEqual(got, v.ToMove()) {
				t.Fatalf("to_move read back %v (%v)", got, err)
			}
		case "terminated":
			var got []bool
			if err := r.Read(&got); err != nil || !reflect.DeepEqual(got, v.Terminated()) {
				t.Fatalf("terminated read back %v (%v)", got, err)
			}
		}
	}
	if err := v.WriteNPY(&bytes.Buffer{}, "policy"); err == nil || !strings.Contains(err.Error(), `no tensor "policy"`) {
		t.Fatalf("unknown tensor: %v", err)
	}
}

func TestVecSaveNPYAndNPZ(t *testing.T) {
	v := vecNPYVec(t)
	dir := filepath.Join(t.TempDir(), "batch")
	if err := v.SaveNPY(dir); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "mask.npy"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var mask []float32
	if err := npyio.Read(f, &mask); err != nil || !reflect.DeepEqual(mask, v.Mask()) {
		t.Fatalf("mask.npy: %v (%v), want %v", mask, err, v.Mask())
	}

	var buf bytes.Buffer
	if err := v.WriteNPZ(&buf); err != nil {
		t.Fatal(err)
	}
	z, err := npz.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(z.Keys()), len(v.TensorNames()); got != want {
		t.Fatalf("npz has %d entries %v, want %d", got, z.Keys(), want)
	}
	var rewards []float32
	if err := z.Read("rewards.npy", &rewards); err != nil || !reflect.DeepEqual(rewards, v.Rewards()) {
		t.Fatalf("rewards.npy in the npz: %v (%v), want %v", rewards, err, v.Rewards())
	}
}
