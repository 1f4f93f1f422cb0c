package nn

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/urim-rl/urim/env"
)

func TestReadNPZRoundTrip(t *testing.T) {
	for _, arch := range []Arch{{Kind: KindMLP, Width: 16, Depth: 2, LayerNorm: true}, {Kind: KindResMLP, Width: 8, Depth: 2}} {
		n, err := New(arch, env.Urim, env.EncodingThermometer, 3)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := n.WriteNPZ(&buf, 42); err != nil {
			t.Fatal(err)
		}
		m, step, err := ReadNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		if err != nil {
			t.Fatalf("%v: %v", arch, err)
		}
		if step != 42 || m.Arch() != n.Arch() || m.Encoding() != n.Encoding() || !m.Rules().SamePlay(n.Rules()) {
			t.Fatalf("%v: step %d arch %v encoding %v", arch, step, m.Arch(), m.Encoding())
		}
		for i, p := range n.Params() {
			if q := m.Params()[i]; q.Name != p.Name || !slices.Equal(q.W, p.W) {
				t.Fatalf("%v: tensor %s differs", arch, p.Name)
			}
		}
	}
}

func TestReadNPZRejectsBadArchives(t *testing.T) {
	n, err := New(Arch{Kind: KindMLP, Width: 8, Depth: 1}, env.Urim, env.EncodingCompact, 1)
	if err != nil {
		t.Fatal(err)
	}
	var good bytes.Buffer
	if err := n.WriteNPZ(&good, 0); err != nil {
		t.Fatal(err)
	}
	data := good.Bytes()
	cases := map[string][]byte{
		"empty":     nil,
		"truncated": data[:len(data)/2],
		"garbage":   bytes.Repeat([]byte("x"), 100),
	}
	for name, b := range cases {
		if _, _, err := ReadNPZ(bytes.NewReader(b), int64(len(b))); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: got %v, want ErrCorrupt", name, err)
		}
	}
	// A wrong shape: the network of another width under the same names.
	wide, _ := New(Arch{Kind: KindMLP, Width: 9, Depth: 1}, env.Urim, env.EncodingCompact, 1)
	wide.arch.Width = 8 // meta says 8, tensors are 9 wide
	var buf bytes.Buffer
	if err := wide.WriteNPZ(&buf, 0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len())); !errors.Is(err, ErrCorrupt) {
		t.Errorf("wrong shape: got %v", err)
	}
}
