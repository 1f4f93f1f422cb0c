package nn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"codeberg.org/sbinet/npyio/npz"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/inputfile"
)

// maxNPZBytes bounds the archive ReadNPZ accepts: the largest network the
// architecture limits allow (2^27 hidden weights and a little) is 512 MiB of
// float32, so anything well above is not a network.
const maxNPZBytes = 1 << 30

// ReadNPZ rebuilds a network from a .npz archive laid out as [Net.WriteNPZ]
// writes it: "meta" (the JSON of NPZMeta as uint8) and one float32 array
// per tensor, under its name, with the shape docs/nn.md gives. It is the
// inverse of WriteNPZ, so weights trained elsewhere (PyTorch, numpy) become
// a network every agent plays. It returns the network and meta's step. A
// missing, extra, misshapen or non-finite tensor, or a meta that does not
// describe a valid network, is an error naming it.
func ReadNPZ(r io.ReaderAt, size int64) (*Net, int64, error) {
	bad := func(format string, args ...any) (*Net, int64, error) {
		return nil, 0, fmt.Errorf("%w: npz: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
	if size > maxNPZBytes {
		return bad("%d bytes, more than any network (%d)", size, maxNPZBytes)
	}
	z, err := npz.NewReader(r, size)
	if err != nil {
		return bad("%v", err)
	}
	defer z.Close()
	keys := z.Keys()
	if !slices.Contains(keys, "meta.npy") {
		return bad(`no "meta" array (write it as urim nn export --npz does: the JSON of the architecture as uint8)`)
	}
	var mb []uint8
	if err := z.Read("meta.npy", &mb); err != nil {
		return bad("meta: %v", err)
	}
	var meta NPZMeta
	dec := json.NewDecoder(bytes.NewReader(mb))
	if err := dec.Decode(&meta); err != nil {
		return bad("meta is not JSON: %v", err)
	}
	if meta.Format != "urim-nn" {
		return bad(`meta format %q, want "urim-nn"`, meta.Format)
	}
	enc, err := env.ParseEncoding(meta.Encoding)
	if err != nil {
		return bad("meta: %v", err)
	}
	if err := meta.Arch.Validate(); err != nil {
		return bad("meta: %v", err)
	}
	n, err := New(meta.Arch, meta.Rules, enc, 0)
	if err != nil {
		return bad("meta: %v", err)
	}
	if meta.InputDim != 0 && meta.InputDim != n.inDim {
		return bad("meta input_dim %d, the %s encoding of %s has %d", meta.InputDim, enc, meta.Rules.Name, n.inDim)
	}
	if meta.Actions != 0 && meta.Actions != n.actions {
		return bad("meta actions %d, the rules have %d", meta.Actions, n.actions)
	}
	want := map[string]bool{"meta.npy": true}
	for _, p := range n.params {
		name := p.Name + ".npy"
		want[name] = true
		h := z.Header(name)
		if h == nil {
			return bad("no tensor %q (the %v network has %d tensors)", p.Name, meta.Arch, len(n.params))
		}
		if strings.Trim(h.Descr.Type, "'") != "<f4" {
			return bad("tensor %q has dtype %s, want float32 (<f4)", p.Name, h.Descr.Type)
		}
		if h.Descr.Fortran {
			return bad("tensor %q is in Fortran order, want C order", p.Name)
		}
		if !slices.Equal(h.Descr.Shape, p.Shape) {
			return bad("tensor %q has shape %v, want %v", p.Name, h.Descr.Shape, p.Shape)
		}
		var w []float32
		if err := z.Read(name, &w); err != nil {
			return bad("tensor %q: %v", p.Name, err)
		}
		if len(w) != len(p.W) {
			return bad("tensor %q holds %d values, want %d", p.Name, len(w), len(p.W))
		}
		for i, v := range w {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return bad("tensor %q: value %d is %v", p.Name, i, v)
			}
		}
		copy(p.W, w)
	}
	for _, k := range keys {
		if !want[k] {
			return bad("unexpected array %q (the %v network has no such tensor)", k, meta.Arch)
		}
	}
	n.WeightsChanged()
	return n, meta.Step, nil
}

// ImportNPZ reads the network of the .npz file at path (see [ReadNPZ]).
func ImportNPZ(path string) (*Net, int64, error) {
	// The one reader of untrusted files: a regular file only, no larger
	// than a checkpoint, which holds these weights and more.
	data, err := inputfile.ReadFile(path, maxCheckpointFile, "an exported network (.npz)")
	if err != nil {
		return nil, 0, fmt.Errorf("nn: import: %w", err)
	}
	n, step, err := ReadNPZ(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, 0, fmt.Errorf("nn: import %s: %w", path, err)
	}
	return n, step, nil
}
