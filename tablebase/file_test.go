package tablebase

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/env"
)

func smallTable(t testing.TB) *Table {
	t.Helper()
	tb, _, err := Build(context.Background(), env.Urim, 4, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// TestSaveLoad writes a table and reads it back byte for byte.
func TestSaveLoad(t *testing.T) {
	tb := smallTable(t)
	path := filepath.Join(t.TempDir(), "urim4.tb")
	if err := tb.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadFor(path, env.Urim)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.data, tb.data) || back.k != tb.k || back.rw != tb.rw || back.vw != tb.vw {
		t.Fatal("the loaded table differs from the saved one")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("the save left %d files, want 1 (no temporary file)", len(entries))
	}
}

// TestBadFiles checks that each kind of damage gets its own error.
func TestBadFiles(t *testing.T) {
	good, err := smallTable(t).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	hl := int(binary.LittleEndian.Uint32(good[12:16]))
	flip := func(i int) []byte {
		b := bytes.Clone(good)
		b[i] ^= 0x40
		return b
	}
	withHeader := func(from, to string) []byte {
		h := bytes.Replace(good[16:16+hl], []byte(from), []byte(to), 1)
		b := binary.LittleEndian.AppendUint32(bytes.Clone(good[:12]), uint32(len(h)))
		b = append(b, h...)
		b = append(b, good[16+hl:]...)
		return b
	}
	cases := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrNotTable},
		{"other file", []byte("PK\x03\x04 a zip file, say, long enough"), ErrNotTable},
		{"magic only", good[:8], ErrTruncated},
		{"cut in the header", good[:16+hl/2], ErrTruncated},
		{"cut in the payload", good[:len(good)/2], ErrTruncated},
		{"no checksum", good[:len(good)-4], ErrTruncated},
		{"trailing bytes", append(bytes.Clone(good), 0), ErrCorrupt},
		{"flipped payload bit", flip(16 + hl + 10), ErrCorrupt},
		{"flipped checksum bit", flip(len(good) - 1), ErrCorrupt},
		{"broken header", flip(16), ErrCorrupt},
		{"version", func() []byte { b := bytes.Clone(good); b[8] = 9; return b }(), ErrVersion},
		{"wrong K", withHeader(`"max_seeds":4`, `"max_seeds":5`), ErrCorrupt},
		{"rules version", withHeader(`"rules_version":1`, `"rules_version":7`), ErrMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.data)
			if !errors.Is(err, c.want) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
		})
	}
}

// TestMismatch checks that a table refuses other rules, at load and at
// probe.
func TestMismatch(t *testing.T) {
	tb := smallTable(t)
	path := filepath.Join(t.TempDir(), "t.tb")
	if err := tb.Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFor(path, env.Urim4); !errors.Is(err, ErrMismatch) {
		t.Fatalf("LoadFor(urim4) = %v, want ErrMismatch", err)
	}
	renamed := env.Urim
	renamed.Name = "mine"
	if _, err := LoadFor(path, renamed); err != nil {
		t.Fatalf("the same rules under another name: %v", err)
	}
	s := env.MustGame(env.Urim7).Start()
	if _, err := tb.Probe(&s); !errors.Is(err, ErrMismatch) {
		t.Fatalf("Probe under urim7 = %v, want ErrMismatch", err)
	}
	u := env.MustGame(env.Urim).Start()
	if _, err := tb.Probe(&u); !errors.Is(err, ErrNotInTable) {
		t.Fatalf("Probe of the start = %v, want ErrNotInTable", err)
	}
}

// FuzzParse feeds damaged files to the loader: it must return an error or
// a table that answers probes, never panic.
func FuzzParse(f *testing.F) {
	good, err := smallTable(f).MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add(good[:40])
	f.Add([]byte{})
	g := env.MustGame(env.Urim)
	probe, err := g.ParsePosition("1,0,0,0,0,1/0,2,0,0,0,0 32-0 S 0")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tb, err := Parse(b)
		if err != nil {
			return
		}
		if tb.MaxSeeds() >= 4 && sameRules(tb.rules, env.Urim) == "" {
			if _, err := tb.Moves(&probe); err != nil {
				t.Fatal(err)
			}
		}
	})
}
