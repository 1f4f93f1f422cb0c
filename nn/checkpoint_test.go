package nn

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
)

// trainedCheckpoint returns a small network after two steps, with its
// optimizer state.
func trainedCheckpoint(t testing.TB) (*Trainer, *Checkpoint) {
	n, _ := New(Arch{Kind: KindResMLP, Width: 16, Depth: 1, LayerNorm: true}, env.Urim, env.EncodingCompact, 8)
	tr, err := NewTrainer(n, TrainConfig{Optimizer: AdamW{WeightDecay: 0.01}}, 32)
	if err != nil {
		t.Fatal(err)
	}
	b := testBatch(t, env.Urim, env.EncodingCompact, 32, 2)
	tr.Step(b)
	tr.Step(b)
	c := tr.Checkpoint()
	c.Meta = map[string]string{"config": "lr: 0.001\n", "rng": "12345"}
	return tr, c
}

func TestCheckpointRoundTripResumesBitForBit(t *testing.T) {
	tr, c := trainedCheckpoint(t)
	path := filepath.Join(t.TempDir(), "a.ckpt")
	if err := Save(path, c); err != nil {
		t.Fatal(err)
	}
	loaded, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := os.ReadFile(path)
	again, _ := loaded.Encode()
	if !bytes.Equal(first, again) {
		t.Fatal("save, load, save is not byte-identical")
	}
	if loaded.Meta["config"] != "lr: 0.001\n" || loaded.Meta["rng"] != "12345" {
		t.Fatalf("meta %v", loaded.Meta)
	}
	if loaded.Step != 2 || loaded.Optimizer.T != 2 || !equalFloats(loaded.Optimizer.M, c.Optimizer.M) || !equalFloats(loaded.Optimizer.V, c.Optimizer.V) {
		t.Fatal("optimizer state or step changed")
	}
	// The resumed trainer and the original take the same next step.
	resumed, err := NewTrainerFrom(loaded, TrainConfig{Optimizer: AdamW{WeightDecay: 0.01}}, 32)
	if err != nil {
		t.Fatal(err)
	}
	b := testBatch(t, env.Urim, env.EncodingCompact, 32, 3)
	s1, s2 := tr.Step(b), resumed.Step(b)
	if s1 != s2 || !equalFloats(tr.net.flat, resumed.net.flat) {
		t.Fatalf("resumed training differs: %+v vs %+v", s1, s2)
	}
	if err := loaded.Check(env.Urim, env.EncodingCompact, &Arch{Kind: KindResMLP, Width: 16, Depth: 1, LayerNorm: true}); err != nil {
		t.Fatal(err)
	}
}

func TestCheckpointErrors(t *testing.T) {
	_, c := trainedCheckpoint(t)
	data, err := c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	mutate := func(f func(d []byte) []byte) []byte { return f(append([]byte(nil), data...)) }
	cases := []struct {
		name string
		data []byte
		want error
		msg  string
	}{
		{"empty", nil, ErrNotCheckpoint, ""},
		{"text", []byte("hello, this is not a network"), ErrNotCheckpoint, ""},
		{"preamble cut", data[:20], ErrTruncated, "preamble"},
		{"header cut", data[:40], ErrTruncated, "announces"},
		{"payload cut", data[:len(data)-100], ErrTruncated, "announces"},
		{"last byte cut", data[:len(data)-1], ErrTruncated, ""},
		{"trailing bytes", append(append([]byte(nil), data...), 0), ErrCorrupt, "trailing"},
		{"flipped payload byte", mutate(func(d []byte) []byte { d[len(d)-50] ^= 0x10; return d }), ErrCorrupt, "checksum"},
		{"flipped header byte", mutate(func(d []byte) []byte { d[preambleSize+5] ^= 1; return d }), ErrCorrupt, "checksum"},
		{"flipped preamble byte", mutate(func(d []byte) []byte { d[17] ^= 1; return d }), ErrCorrupt, "preamble"},
		{"version 2", mutate(func(d []byte) []byte { binary.LittleEndian.PutUint32(d[8:], 2); return d }), ErrVersion, "version 2"},
		{"bad header", resign(mutate(func(d []byte) []byte { copy(d[preambleSize:], `{"nonsense"`); return d })), ErrCorrupt, "header"},
	}
	for _, c := range cases {
		_, err := Decode(c.data)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v, want %v containing %q", c.name, err, c.want, c.msg)
		}
	}
	// Every single flipped byte, and every truncation, is an error.
	for i := range data {
		d := append([]byte(nil), data...)
		d[i] ^= 0x40
		if _, err := Decode(d); err == nil {
			t.Fatalf("flipping byte %d went unnoticed", i)
		}
		if _, err := Decode(data[:i]); err == nil {
			t.Fatalf("truncation to %d bytes went unnoticed", i)
		}
	}
}

// resign recomputes the trailing checksum, so that a test reaches the checks
// behind it.
func resign(d []byte) []byte {
	binary.LittleEndian.PutUint32(d[len(d)-4:], crc32.Checksum(d[:len(d)-4], castagnoli))
	return d
}

func TestCheckpointMismatch(t *testing.T) {
	n, _ := New(DefaultArch(), env.Urim, env.EncodingCompact, 1)
	path := filepath.Join(t.TempDir(), "n.ckpt")
	if err := Save(path, &Checkpoint{Net: n}); err != nil {
		t.Fatal(err)
	}
	custom := env.Urim
	custom.Capacity = 0 // still named "urim": caught by the field comparison
	other := Arch{Kind: KindResMLP, Width: 256, Depth: 3}
	for _, c := range []struct {
		name  string
		rules env.Rules
		enc   env.Encoding
		arch  *Arch
		msg   string
	}{
		{"preset", env.Oware, env.EncodingCompact, nil, "made for urim"},
		{"custom rules with the preset's name", custom, env.EncodingCompact, nil, "made for urim with capacity 17, not 0"},
		{"encoding", env.Urim, env.EncodingThermometer, nil, "encoding"},
		{"architecture", env.Urim, env.EncodingCompact, &other, "mlp 3x256, not resmlp 3x256"},
	} {
		_, err := LoadNetFor(path, c.rules, c.enc)
		if c.arch != nil {
			var ck *Checkpoint
			ck, err = Load(path)
			if err == nil {
				err = ck.Check(c.rules, c.enc, c.arch)
			}
		}
		if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v", c.name, err)
		}
	}
	if _, err := LoadNetFor(path, env.Urim, env.EncodingCompact); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.ckpt")); err == nil {
		t.Fatal("a missing file loads")
	}
}

func TestSaveIsAtomic(t *testing.T) {
	dir := t.TempDir()
	n, _ := New(Arch{Width: 8, Depth: 1}, env.Urim, env.EncodingCompact, 1)
	path := filepath.Join(dir, "x.ckpt")
	for i := 0; i < 2; i++ {
		if err := Save(path, &Checkpoint{Net: n, Step: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
	if err := Save(filepath.Join(dir, "no", "such", "dir.ckpt"), &Checkpoint{Net: n}); err == nil {
		t.Fatal("saving into a missing directory succeeds")
	}
}

// TestSavedFilesReadable: checkpoints and .npz exports are readable by
// everyone (0644), like every other file urim writes, and a directory as
// the target is an error that says so.
func TestSavedFilesReadable(t *testing.T) {
	dir := t.TempDir()
	n, _ := New(Arch{Width: 8, Depth: 1}, env.Urim, env.EncodingCompact, 1)
	ckpt, npz := filepath.Join(dir, "x.ckpt"), filepath.Join(dir, "x.npz")
	if err := Save(ckpt, &Checkpoint{Net: n}); err != nil {
		t.Fatal(err)
	}
	if err := n.ExportNPZ(npz, 0); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{ckpt, npz} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, %v; want 0644", p, fi.Mode().Perm(), err)
		}
	}
	if err := Save(dir, &Checkpoint{Net: n}); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("Save to a directory: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	n, _ := New(Arch{Width: 4, Depth: 1}, env.Urim4, env.EncodingCompact, 1)
	data, _ := (&Checkpoint{Net: n, Step: 3}).Encode()
	f.Add(data)
	tr, _ := NewTrainer(n, TrainConfig{}, 1)
	withOpt, _ := tr.Checkpoint().Encode()
	f.Add(withOpt)
	f.Add([]byte(checkpointMagic))
	f.Fuzz(func(t *testing.T, d []byte) {
		c, err := Decode(d)
		if err == nil {
			if _, err := c.Encode(); err != nil {
				t.Fatal(err)
			}
			return
		}
		for _, want := range []error{ErrNotCheckpoint, ErrVersion, ErrTruncated, ErrCorrupt, ErrMismatch} {
			if errors.Is(err, want) {
				return
			}
		}
		t.Fatalf("error of no known kind: %v", err)
	})
}

// FuzzDecodeHeader fuzzes the JSON header and payload behind valid
// checksums, which random bytes almost never reach.
func FuzzDecodeHeader(f *testing.F) {
	n, _ := New(Arch{Width: 4, Depth: 1}, env.Urim4, env.EncodingCompact, 1)
	data, _ := (&Checkpoint{Net: n, Step: 3}).Encode()
	hlen := binary.LittleEndian.Uint32(data[12:])
	f.Add(data[preambleSize:preambleSize+hlen], data[preambleSize+hlen:len(data)-4])
	f.Add([]byte(`{"format":"urim-nn","arch":{"kind":"mlp","width":4096,"depth":64},"encoding":"compact","input_dim":17,"actions":6,"rules":{"pits_per_row":6,"seeds_per_pit":3,"trigger":[2,3],"grand_slam":"capture"},"rules_version":1,"tensors":[]}`), []byte{})
	f.Fuzz(func(t *testing.T, header, payload []byte) {
		d := make([]byte, preambleSize, preambleSize+len(header)+len(payload)+4)
		copy(d, checkpointMagic)
		binary.LittleEndian.PutUint32(d[8:], CheckpointVersion)
		binary.LittleEndian.PutUint32(d[12:], uint32(len(header)))
		binary.LittleEndian.PutUint64(d[16:], uint64(len(payload)))
		binary.LittleEndian.PutUint32(d[28:], crc32.Checksum(d[:28], castagnoli))
		d = append(append(d, header...), payload...)
		d = binary.LittleEndian.AppendUint32(d, crc32.Checksum(d, castagnoli))
		if c, err := Decode(d); err == nil {
			if again, err := c.Encode(); err != nil || len(again) == 0 {
				t.Fatal(err)
			}
		}
	})
}
