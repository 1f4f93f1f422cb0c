package numpy

import (
	"bytes"
	"reflect"
	"runtime"
	"testing"

	"codeberg.org/sbinet/npyio"
	"codeberg.org/sbinet/npyio/npz"
)

// testArrays holds one array of every dtype, 1-D and 2-D, and an empty one.
func testArrays() []Array {
	return []Array{
		{Name: "f", Shape: []int{2, 3}, Data: []float32{1, -2, 3.5, 0, 1e-7, -0}},
		{Name: "b", Shape: []int{4}, Data: []bool{true, false, false, true}},
		{Name: "i", Shape: []int{3}, Data: []int32{-1, 0, 1 << 30}},
		{Name: "l", Shape: []int{1, 2}, Data: []int64{-1 << 62, 7}},
		{Name: "u", Shape: []int{3}, Data: []uint8("{}\n")},
		{Name: "empty", Shape: []int{0, 5}, Data: []float32{}},
	}
}

// TestNPYReadsBack checks every dtype's header and data through npyio's
// reader, and that the data starts at a multiple of 64 bytes.
func TestNPYReadsBack(t *testing.T) {
	for _, a := range testArrays() {
		var buf bytes.Buffer
		if err := WriteNPY(&buf, a); err != nil {
			t.Fatal(err)
		}
		if hl := int(buf.Bytes()[8]) | int(buf.Bytes()[9])<<8; (10+hl)%64 != 0 {
			t.Errorf("%s: data starts at byte %d, not a multiple of 64", a.Name, 10+hl)
		}
		r, err := npyio.NewReader(&buf)
		if err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		if !reflect.DeepEqual(r.Header.Descr.Shape, a.Shape) || r.Header.Descr.Fortran {
			t.Errorf("%s: shape %v fortran %v, want %v C order", a.Name, r.Header.Descr.Shape, r.Header.Descr.Fortran, a.Shape)
		}
		got := reflect.New(reflect.TypeOf(a.Data))
		if err := r.Read(got.Interface()); err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		if g := got.Elem().Interface(); reflect.ValueOf(g).Len() != 0 || reflect.ValueOf(a.Data).Len() != 0 {
			if !reflect.DeepEqual(g, a.Data) {
				t.Errorf("%s: read back %v, want %v", a.Name, g, a.Data)
			}
		}
	}
}

// TestNPZReadsBack checks an archive through npyio's reader: every entry,
// in order, with its data.
func TestNPZReadsBack(t *testing.T) {
	var buf bytes.Buffer
	arrays := testArrays()
	if err := WriteNPZ(&buf, arrays); err != nil {
		t.Fatal(err)
	}
	z, err := npz.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range arrays {
		names = append(names, a.Name+".npy")
	}
	if !reflect.DeepEqual(z.Keys(), names) {
		t.Fatalf("entries %v, want %v", z.Keys(), names)
	}
	var f []float32
	if err := z.Read("f.npy", &f); err != nil || !reflect.DeepEqual(f, arrays[0].Data) {
		t.Errorf("f.npy: %v (%v)", f, err)
	}
	var b []bool
	if err := z.Read("b.npy", &b); err != nil || !reflect.DeepEqual(b, arrays[1].Data) {
		t.Errorf("b.npy: %v (%v)", b, err)
	}
}

// TestNPZSameOnAnyCores: the archive's bytes do not depend on GOMAXPROCS,
// for an entry of several compression chunks.
func TestNPZSameOnAnyCores(t *testing.T) {
	big := make([]float32, 3*deflateChunk/4+17) // three and a bit chunks of bytes
	for i := range big {
		big[i] = float32(i%1000) / 7
	}
	arrays := []Array{{Name: "big", Shape: []int{len(big)}, Data: big}, testArrays()[0]}
	write := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var buf bytes.Buffer
		if err := WriteNPZ(&buf, arrays); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	one, four := write(1), write(4)
	if !bytes.Equal(one, four) {
		t.Fatalf("1 core: %d bytes, 4 cores: %d bytes, differing", len(one), len(four))
	}
	z, err := npz.NewReader(bytes.NewReader(one), int64(len(one)))
	if err != nil {
		t.Fatal(err)
	}
	var got []float32
	if err := z.Read("big.npy", &got); err != nil || !reflect.DeepEqual(got, big) {
		t.Fatalf("big.npy read back wrong (%v)", err)
	}
}

// TestBadArrayPanics: data of another type, or not matching the shape, is a
// caller bug.
func TestBadArrayPanics(t *testing.T) {
	for _, a := range []Array{
		{Name: "f64", Shape: []int{1}, Data: []float64{1}},
		{Name: "short", Shape: []int{2, 2}, Data: []float32{1, 2, 3}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", a.Name)
				}
			}()
			WriteNPY(&bytes.Buffer{}, a)
		}()
	}
}
