// Package numpy is the one writer of NumPy's .npy and .npz files in urim: the
// vectorized environment's batches (package env), a network's exported
// weights (package nn) and a dataset's shards (package dataset) are all
// written here, so that every file has the same header layout and
// compression.
//
// A .npy file is written as format version 1.0: the magic string, the
// version, the header length, then a Python dict literal giving dtype, C
// order and shape, padded with spaces so that the data starts at a multiple
// of 64 bytes (as NumPy writes it), then the little-endian data in C order.
// A .npz file is a zip archive of NAME.npy entries, deflate-compressed in
// chunks on every core (see WriteNPZ).
package numpy

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Array is one array to write: its name (the .npz entry is NAME.npy), its
// shape, and its data, flat in C order: a []float32, []bool, []int32,
// []int64 or []uint8 (dtypes <f4, |b1, <i4, <i8, |u1) whose length is the
// product of Shape.
type Array struct {
	Name  string
	Shape []int
	Data  any
}

// dtype returns the NumPy dtype of a's data and its number of values. It
// panics on another type or a length that does not match the shape (caller
// bugs).
func (a *Array) dtype() string {
	var d string
	var n int
	switch v := a.Data.(type) {
	case []float32:
		d, n = "<f4", len(v)
	case []bool:
		d, n = "|b1", len(v)
	case []int32:
		d, n = "<i4", len(v)
	case []int64:
		d, n = "<i8", len(v)
	case []uint8:
		d, n = "|u1", len(v)
	default:
		panic(fmt.Sprintf("numpy: array %s of type %T", a.Name, a.Data))
	}
	want := 1
	for _, s := range a.Shape {
		want *= s
	}
	if n != want {
		panic(fmt.Sprintf("numpy: array %s has %d values for shape %v", a.Name, n, a.Shape))
	}
	return d
}

// header returns the .npy 1.0 header of a.
func (a *Array) header() []byte {
	dims := make([]string, len(a.Shape))
	for i, s := range a.Shape {
		dims[i] = strconv.Itoa(s)
	}
	shape := "(" + strings.Join(dims, ", ") + ")"
	if len(dims) == 1 {
		shape = "(" + dims[0] + ",)"
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", a.dtype(), shape)
	const pre = 10 // magic (6), version (2), header length (2)
	total := (pre + len(dict) + 1 + 63) / 64 * 64
	hdr := dict + strings.Repeat(" ", total-pre-len(dict)-1) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(hdr)), byte(len(hdr)>>8))
	return append(b, hdr...)
}

// encode returns a as the bytes of a .npy file.
func (a *Array) encode() []byte {
	var b bytes.Buffer
	b.Write(a.header())
	binary.Write(&b, binary.LittleEndian, a.Data) // every type dtype accepts encodes; writes to a bytes.Buffer do not fail
	return b.Bytes()
}

// WriteNPY writes a to w as a .npy file. It panics if a's data is of another
// type than those Array lists or does not match its shape.
func WriteNPY(w io.Writer, a Array) error {
	_, err := w.Write(a.encode())
	return err
}

// WriteNPZ writes arrays to w as a .npz archive, one NAME.npy entry per array
// in the given order, deflate-compressed (see deflateChunks). It panics as
// WriteNPY does.
func WriteNPZ(w io.Writer, arrays []Array) error {
	raws := make([][]byte, len(arrays))
	for i := range arrays {
		raws[i] = arrays[i].encode()
	}
	comps := deflateChunks(raws)
	zw := zip.NewWriter(w)
	for i, a := range arrays {
		ew, err := zw.CreateRaw(&zip.FileHeader{
			Name: a.Name + ".npy", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(raws[i]),
			CompressedSize64: uint64(len(comps[i])), UncompressedSize64: uint64(len(raws[i])),
		})
		if err != nil {
			return fmt.Errorf("numpy: npz entry %s: %w", a.Name, err)
		}
		if _, err := ew.Write(comps[i]); err != nil {
			return fmt.Errorf("numpy: npz entry %s: %w", a.Name, err)
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
// barely suffers, and a large archive is written on every core. The output
// does not depend on the number of cores.
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
