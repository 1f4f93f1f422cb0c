package dataset

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/numpy"
)

// Columns are the arrays of tensor rows, flat and row-major, one row per
// recorded position: the row schema declared once, as env.Rows (schema.go
// names the arrays and their dtypes; docs/dataset.md documents them). A
// [Game] holds its rows in them, [Tensors] a shard's, and training's replay
// window its ring.
type Columns = env.Rows

// Tensors holds the arrays of one shard: N rows of [Columns] (Obs of Dim
// columns, Mask and Policy of Actions columns), and each row's game id,
// which a [Game] holds once, in its record.
type Tensors struct {
	N, Dim, Actions int
	Columns
	GameID []int64
}

// appendGame appends the rows of g.
func (t *Tensors) appendGame(g *Game) {
	n := g.Record.Positions
	t.N += n
	t.Obs = append(t.Obs, g.Obs...)
	t.Mask = append(t.Mask, g.Mask...)
	t.Policy = append(t.Policy, g.Policy...)
	t.HasPolicy = append(t.HasPolicy, g.HasPolicy...)
	t.Value = append(t.Value, g.Value...)
	t.Outcome = append(t.Outcome, g.Outcome...)
	t.Action = append(t.Action, g.Action...)
	t.Ply = append(t.Ply, g.Ply...)
	for range n {
		t.GameID = append(t.GameID, g.Record.ID)
	}
}

// reset empties t, keeping its buffers.
func (t *Tensors) reset() {
	*t = Tensors{Dim: t.Dim, Actions: t.Actions, Columns: Columns{
		Obs: t.Obs[:0], Mask: t.Mask[:0], Policy: t.Policy[:0], HasPolicy: t.HasPolicy[:0],
		Value: t.Value[:0], Outcome: t.Outcome[:0], Action: t.Action[:0], Ply: t.Ply[:0]}, GameID: t.GameID[:0]}
}

// WriteNPZ writes t as a NumPy .npz archive with internal/numpy, one
// NAME.npy entry per array in the order of [ArrayNames], each of shape (N,)
// or (N, width).
func (t *Tensors) WriteNPZ(w io.Writer) error {
	var as []numpy.Array
	for _, a := range arrays(t.Dim, t.Actions) {
		shape := []int{t.N}
		if a.width > 0 {
			shape = append(shape, a.width)
		}
		as = append(as, numpy.Array{Name: a.name, Shape: shape, Data: t.flat(a.name)})
	}
	if err := numpy.WriteNPZ(w, as); err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	return nil
}

// field returns a pointer to the array named name: a *[]float32, *[]bool,
// *[]int32 or *[]int64. It is the one place that maps names to fields.
func (t *Tensors) field(name string) any {
	switch name {
	case ArrObs:
		return &t.Obs
	case ArrMask:
		return &t.Mask
	case ArrPolicy:
		return &t.Policy
	case ArrHasPolicy:
		return &t.HasPolicy
	case ArrValue:
		return &t.Value
	case ArrOutcome:
		return &t.Outcome
	case ArrAction:
		return &t.Action
	case ArrPly:
		return &t.Ply
	case ArrGameID:
		return &t.GameID
	}
	panic("dataset: unknown array " + name)
}

// flat returns the array named name as a flat slice.
func (t *Tensors) flat(name string) any {
	switch p := t.field(name).(type) {
	case *[]float32:
		return *p
	case *[]bool:
		return *p
	case *[]int32:
		return *p
	case *[]int64:
		return *p
	}
	panic("dataset: array " + name + " of an unknown type")
}

// readFlat reads count little-endian values from r into a new slice at p.
func readFlat[T float32 | bool | int32 | int64](r io.Reader, p *[]T, count int) error {
	*p = make([]T, count)
	return binary.Read(r, binary.LittleEndian, *p)
}

// maxInflate bounds the ratio of an entry's declared size to its compressed
// size (deflate cannot do better than about 1032:1), so a crafted archive
// cannot make the reader allocate much more than the file's size.
const maxInflate = 1100

// ReadNPZ reads a shard's tensors from the bytes of its .npz file, for
// observations of width dim and a actions. It demands the exact set of
// arrays, their dtypes, and one row count for all; a malformed file is an
// error naming the array and the problem.
func ReadNPZ(data []byte, dim, a int) (*Tensors, error) {
	return readNPZ(data, dim, a, MaxShardPositions)
}

// readNPZ is ReadNPZ for arrays of at most maxRows rows: an entry that
// declares more data is refused before it is inflated.
func readNPZ(data []byte, dim, a, maxRows int) (*Tensors, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("not a .npz archive: %w", err)
	}
	specs := arrays(dim, a)
	var want, got []string
	for _, s := range specs {
		want = append(want, s.name+".npy")
	}
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		if _, dup := files[f.Name]; dup {
			return nil, fmt.Errorf("array %s stored twice", f.Name)
		}
		files[f.Name] = f
		got = append(got, f.Name)
	}
	slices.Sort(got)
	sortedWant := slices.Sorted(slices.Values(want))
	if !slices.Equal(got, sortedWant) {
		return nil, fmt.Errorf("arrays %v, want exactly %v", got, sortedWant)
	}
	t := &Tensors{N: -1, Dim: dim, Actions: a}
	for _, s := range specs {
		if err := t.readArray(files[s.name+".npy"], s, maxRows); err != nil {
			return nil, fmt.Errorf("array %s: %w", s.name, err)
		}
	}
	return t, nil
}

func (t *Tensors) readArray(f *zip.File, s arraySpec, maxRows int) error {
	if f.UncompressedSize64 > f.CompressedSize64*maxInflate+1024 {
		return fmt.Errorf("declared size %d is implausible for %d compressed bytes", f.UncompressedSize64, f.CompressedSize64)
	}
	if most := uint64(maxNPYHeader) + uint64(maxRows)*uint64(max(s.width, 1))*dtypeSize[s.dtype]; f.UncompressedSize64 > most {
		return fmt.Errorf("declared size %d is more than %d rows can take (%d bytes)", f.UncompressedSize64, maxRows, most)
	}
	rc, err := f.Open()
	if err != nil {
		return err
	}
	raw, err := io.ReadAll(io.LimitReader(rc, int64(f.UncompressedSize64)+1))
	rc.Close()
	if err != nil {
		return err
	}
	if uint64(len(raw)) > f.UncompressedSize64 {
		return fmt.Errorf("inflates to more than its declared %d bytes", f.UncompressedSize64)
	}
	br := bytes.NewReader(raw)
	r, err := readNPYHeader(br, raw)
	if err != nil {
		return fmt.Errorf("bad .npy header: %w", err)
	}
	h := r.Header.Descr
	if dt := strings.Trim(h.Type, `'"`); dt != s.dtype {
		return fmt.Errorf("dtype %s, want %s", dt, s.dtype)
	}
	if h.Fortran {
		return fmt.Errorf("Fortran order, want C order")
	}
	wantDims := 1
	if s.width > 0 {
		wantDims = 2
	}
	if len(h.Shape) != wantDims || (s.width > 0 && h.Shape[1] != s.width) {
		if s.width > 0 {
			return fmt.Errorf("shape %v, want (N, %d)", h.Shape, s.width)
		}
		return fmt.Errorf("shape %v, want (N,)", h.Shape)
	}
	n := h.Shape[0]
	if t.N >= 0 && n != t.N {
		return fmt.Errorf("%d rows, the other arrays have %d", n, t.N)
	}
	t.N = n
	width := max(s.width, 1)
	size := dtypeSize[s.dtype]
	if n < 0 || uint64(n)*uint64(width)*size != uint64(br.Len()) {
		return fmt.Errorf("shape %v wants %d data bytes, the entry holds %d", h.Shape, uint64(max(n, 0))*uint64(width)*size, br.Len())
	}
	count := n * width
	if count == 0 {
		return nil
	}
	// npyio parsed and checked the header; the data, whose size is now
	// known to match, is read in one piece (npyio's reader decodes it
	// element by element, ten times slower).
	switch p := t.field(s.name).(type) {
	case *[]float32:
		err = readFlat(br, p, count)
	case *[]bool:
		err = readFlat(br, p, count)
	case *[]int32:
		err = readFlat(br, p, count)
	case *[]int64:
		err = readFlat(br, p, count)
	}
	if err != nil {
		return fmt.Errorf("reading data: %w", err)
	}
	return nil
}
