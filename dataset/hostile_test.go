package dataset

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/urim-rl/urim/internal/numpy"
)

// replaceShardFile puts data in place of shard k's file name and fixes the
// manifest's size and checksum for it (with edit applied to the manifest).
func replaceShardFile(t *testing.T, dir string, k int, tensors bool, data []byte, edit func(*ShardInfo)) {
	t.Helper()
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	s := &m.Shards[k]
	name := s.Games
	if tensors {
		name = s.Tensors
		s.TensorsSHA256, s.TensorsBytes = sha256Hex(data), int64(len(data))
	} else {
		s.GamesSHA256, s.GamesBytes = sha256Hex(data), int64(len(data))
	}
	if edit != nil {
		edit(s)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(m)
	os.WriteFile(filepath.Join(dir, ManifestName), js, 0o644)
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestVerifyZipBomb: a shard whose array declares (and inflates to) far more
// rows than the manifest counts is refused before it is inflated.
func TestVerifyZipBomb(t *testing.T) {
	dir := smallDataset(t)
	m, _ := ReadManifest(dir)
	old, _ := os.ReadFile(filepath.Join(dir, m.Shards[0].Tensors))
	zr, err := zip.NewReader(bytes.NewReader(old), int64(len(old)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	const bomb = 64 << 20
	for _, f := range zr.File {
		w, _ := zw.Create(f.Name)
		rc, _ := f.Open()
		var entry bytes.Buffer
		entry.ReadFrom(rc)
		rc.Close()
		if f.Name == ArrObs+".npy" {
			rows := bomb / 4 / m.ObsDim
			numpy.WriteNPY(w, numpy.Array{Name: ArrObs, Shape: []int{rows, m.ObsDim}, Data: make([]float32, rows*m.ObsDim)})
			continue
		}
		w.Write(entry.Bytes())
	}
	zw.Close()
	replaceShardFile(t, dir, 0, true, buf.Bytes(), nil)
	var verr error
	n := allocated(func() { _, verr = Verify(context.Background(), dir, nil) })
	if !errors.Is(verr, ErrSchema) || !strings.Contains(verr.Error(), "declared size") {
		t.Fatalf("Verify = %v, want the declared size refused", verr)
	}
	if n > bomb/4 {
		t.Fatalf("Verify allocated %d bytes for a bomb of %d", n, bomb)
	}
}

// TestVerifyGzipOfManyLines: a games file of many valid lines, more than the
// manifest counts, is refused at the first line too many.
func TestVerifyGzipOfManyLines(t *testing.T) {
	dir := smallDataset(t)
	m, _ := ReadManifest(dir)
	old, _ := os.ReadFile(filepath.Join(dir, m.Shards[0].Games))
	zr, _ := gzip.NewReader(bytes.NewReader(old))
	var plain bytes.Buffer
	plain.ReadFrom(zr)
	line, _, _ := bytes.Cut(plain.Bytes(), []byte("\n"))
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	const copies = 200_000
	for range copies {
		zw.Write(line)
		zw.Write([]byte("\n"))
	}
	zw.Close()
	replaceShardFile(t, dir, 0, false, buf.Bytes(), nil)
	for _, run := range []struct {
		name string
		f    func() error
	}{
		{"Verify", func() error { _, err := Verify(context.Background(), dir, nil); return err }},
		{"Inspect", func() error { _, err := Inspect(dir); return err }},
	} {
		var err error
		n := allocated(func() { err = run.f() })
		if err == nil || !strings.Contains(err.Error(), "more than") {
			t.Errorf("%s = %v, want too many games refused", run.name, err)
		}
		if n > uint64(copies*len(line)/4) {
			t.Errorf("%s allocated %d bytes for %d lines of %d", run.name, n, copies, len(line))
		}
	}
}

// TestVerifyIDRange: first_id and last_id that contradict the records are
// refused.
func TestVerifyIDRange(t *testing.T) {
	dir := smallDataset(t)
	m, _ := ReadManifest(dir)
	data, _ := os.ReadFile(filepath.Join(dir, m.Shards[0].Games))
	replaceShardFile(t, dir, 0, false, data, func(s *ShardInfo) { s.LastID += 100 })
	_, err := Verify(context.Background(), dir, nil)
	if !errors.Is(err, ErrSchema) || !strings.Contains(err.Error(), "last_id") {
		t.Fatalf("Verify = %v, want the id range refused", err)
	}
}

// TestVerifyRefusesSymlinkOut: a shard file that is a symlink out of the
// dataset directory is refused (even to a copy of the right file).
func TestVerifyRefusesSymlinkOut(t *testing.T) {
	dir := smallDataset(t)
	m, _ := ReadManifest(dir)
	path := filepath.Join(dir, m.Shards[0].Games)
	outside := filepath.Join(t.TempDir(), "games.jsonl.gz")
	data, _ := os.ReadFile(path)
	os.WriteFile(outside, data, 0o644)
	os.Remove(path)
	if err := os.Symlink(outside, path); err != nil {
		t.Fatal(err)
	}
	_, err := Verify(context.Background(), dir, nil)
	if err == nil || !strings.Contains(err.Error(), "out of the dataset directory") {
		t.Fatalf("Verify = %v, want the symlink out refused", err)
	}
}

// TestReadNPZHostileHeaders: .npy headers that claim gigabytes, are empty,
// or have their keys in another order give errors, never a panic or a huge
// allocation.
func TestReadNPZHostileHeaders(t *testing.T) {
	npzData, _ := seedShard(t)
	zr, _ := zip.NewReader(bytes.NewReader(npzData), int64(len(npzData)))
	entries := map[string][]byte{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		var b bytes.Buffer
		b.ReadFrom(rc)
		rc.Close()
		entries[f.Name] = b.Bytes()
	}
	v2 := func(n uint32, body string) []byte {
		b := append([]byte("\x93NUMPY\x02\x00"), binary.LittleEndian.AppendUint32(nil, n)...)
		return append(b, body...)
	}
	v1 := func(dict string) []byte {
		h := dict + strings.Repeat(" ", 127-len(dict)-10) + "\n"
		return append([]byte("\x93NUMPY\x01\x00"), append([]byte{byte(len(h)), byte(len(h) >> 8)}, h...)...)
	}
	for name, head := range map[string][]byte{
		"v2 4 GiB":       v2(0xFFFFFFF0, "{'descr': '<f4'"),
		"v2 empty":       v2(0, ""),
		"v1 empty":       {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0},
		"v1 overlong":    {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0xff, 0xff, '{'},
		"keys reordered": v1("{'shape': (1,), 'fortran_order': False, 'descr': '<f4', }"),
		"no dict":        v1("hello"),
	} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for k, v := range entries {
			w, _ := zw.Create(k)
			if k == ArrValue+".npy" {
				v = append(head, make([]byte, 4)...)
			}
			w.Write(v)
		}
		zw.Close()
		var err error
		n := allocated(func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: panic %v", name, p)
				}
			}()
			_, err = ReadNPZ(buf.Bytes(), 17, 6)
		})
		if err == nil && name != "keys reordered" {
			t.Errorf("%s: no error", name)
		}
		if n > 16<<20 {
			t.Errorf("%s: allocated %d bytes", name, n)
		}
	}
}
