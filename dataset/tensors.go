package dataset

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"

	"codeberg.org/sbinet/npyio/npy"
)

// Tensors holds the arrays of one shard, flat and row-major: N rows, Obs of
// Dim columns, Mask and Policy of Actions columns.
type Tensors struct {
	N, Dim, Actions int

	Obs       []float32
	Mask      []bool
	Policy    []float32
	HasPolicy []bool
	Value     []float32
	Outcome   []float32
	Action    []int32
	Ply       []int32
	GameID    []int64
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
	*t = Tensors{Dim: t.Dim, Actions: t.Actions,
		Obs: t.Obs[:0], Mask: t.Mask[:0], Policy: t.Policy[:0], HasPolicy: t.HasPolicy[:0],
		Value: t.Value[:0], Outcome: t.Outcome[:0], Action: t.Action[:0], Ply: t.Ply[:0], GameID: t.GameID[:0]}
}

// WriteNPZ writes t as a NumPy .npz archive (deflate-compressed), one
// NAME.npy entry per array in the order of [ArrayNames]. Each entry is a
// version 1.0 .npy file: a header padded to 64 bytes giving dtype and shape,
// then the little-endian data in C order. (npyio reads them back; its writer
// discovers the type of every row of a 2-D value, which costs a hundred
// times more than the data.) The entries are compressed in chunks on every
// core (see deflateChunks).
func (t *Tensors) WriteNPZ(w io.Writer) error {
	specs := arrays(t.Dim, t.Actions)
	raws := make([][]byte, len(specs))
	for i, a := range specs {
		var b bytes.Buffer
		b.Write(npyHeader(a, t.N))
		if err := binary.Write(&b, binary.LittleEndian, t.flat(a.name)); err != nil {
			return fmt.Errorf("dataset: writing %s: %w", a.name, err)
		}
		raws[i] = b.Bytes()
	}
	comps := deflateChunks(raws)
	zw := zip.NewWriter(w)
	for i, a := range specs {
		ew, err := zw.CreateRaw(&zip.FileHeader{
			Name: a.name + ".npy", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(raws[i]),
			CompressedSize64: uint64(len(comps[i])), UncompressedSize64: uint64(len(raws[i])),
		})
		if err != nil {
			return fmt.Errorf("dataset: npz entry %s: %w", a.name, err)
		}
		if _, err := ew.Write(comps[i]); err != nil {
			return err
		}
	}
	return zw.Close()
}

// deflateChunk is the size of the pieces deflateChunks compresses apart.
const deflateChunk = 1 << 20

// deflateChunks compresses each of raws into one raw deflate stream, cutting
// them into pieces of deflateChunk bytes compressed in parallel (pigz's
// trick): every piece but an entry's last ends with a sync flush instead of
// a final block, so the pieces concatenate into one valid stream. The ratio
// barely suffers, and a shard is written on every core.
func deflateChunks(raws [][]byte) [][]byte {
	type piece struct{ entry, lo, hi int }
	var pieces []piece
	for e, raw := range raws {
		for lo := 0; lo == 0 || lo < len(raw); lo += deflateChunk {
			pieces = append(pieces, piece{e, lo, min(lo+deflateChunk, len(raw))})
		}
	}
	out := make([][]byte, len(pieces))
	next := make(chan int, len(pieces))
	for i := range pieces {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(pieces)) {
		wg.Go(func() {
			fw, _ := flate.NewWriter(io.Discard, flate.BestSpeed) // a valid level: no error
			for i := range next {
				p := pieces[i]
				var b bytes.Buffer
				b.Grow((p.hi-p.lo)/2 + 64)
				fw.Reset(&b)
				fw.Write(raws[p.entry][p.lo:p.hi]) // writes to a bytes.Buffer do not fail
				if p.hi == len(raws[p.entry]) {
					fw.Close()
				} else {
					fw.Flush()
				}
				out[i] = b.Bytes()
			}
		})
	}
	wg.Wait()
	comps := make([][]byte, len(raws))
	for i, p := range pieces {
		comps[p.entry] = append(comps[p.entry], out[i]...)
	}
	return comps
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

// npyHeader returns the .npy 1.0 header of array a with n rows: magic,
// version, header length, and a Python dict literal padded with spaces so
// the data starts at a multiple of 64 bytes, as NumPy writes it.
func npyHeader(a arraySpec, n int) []byte {
	shape := fmt.Sprintf("(%d,)", n)
	if a.width > 0 {
		shape = fmt.Sprintf("(%d, %d)", n, a.width)
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", a.dtype, shape)
	const pre = 10 // magic (6), version (2), header length (2)
	total := (pre + len(dict) + 1 + 63) / 64 * 64
	hdr := dict + strings.Repeat(" ", total-pre-len(dict)-1) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(hdr)), byte(len(hdr)>>8))
	return append(b, hdr...)
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
		if err := t.readArray(files[s.name+".npy"], s); err != nil {
			return nil, fmt.Errorf("array %s: %w", s.name, err)
		}
	}
	return t, nil
}

func (t *Tensors) readArray(f *zip.File, s arraySpec) error {
	if f.UncompressedSize64 > f.CompressedSize64*maxInflate+1024 {
		return fmt.Errorf("declared size %d is implausible for %d compressed bytes", f.UncompressedSize64, f.CompressedSize64)
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
	br := bytes.NewReader(raw)
	r, err := npy.NewReader(br)
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
	size := map[string]uint64{"<f4": 4, "|b1": 1, "<i4": 4, "<i8": 8}[s.dtype]
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
