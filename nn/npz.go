package nn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/numpy"
)

// NPZMeta is the "meta" entry of an exported .npz: what a reader needs to
// rebuild the forward pass (docs/nn.md has the numpy code).
type NPZMeta struct {
	Format   string    `json:"format"` // "urim-nn"
	Arch     Arch      `json:"arch"`
	Encoding string    `json:"encoding"`
	InputDim int       `json:"input_dim"`
	Actions  int       `json:"actions"`
	Rules    env.Rules `json:"rules"`
	Step     int64     `json:"step"`
	Params   []string  `json:"params"` // tensor names in layer order
	NormEps  float64   `json:"norm_eps"`
}

// WriteNPZ writes the network's weights to w as a NumPy .npz archive: one
// float32 array per Param under its name ([in, out] matrices, [n] vectors),
// and "meta", the JSON of NPZMeta as a uint8 array
// (json.loads(z["meta"].tobytes()) in Python). step is recorded in meta.
func (n *Net) WriteNPZ(w io.Writer, step int64) error {
	meta := NPZMeta{Format: "urim-nn", Arch: n.arch, Encoding: n.enc.String(), InputDim: n.inDim, Actions: n.actions,
		Rules: n.rules, Step: step, NormEps: normEps}
	for _, p := range n.params {
		meta.Params = append(meta.Params, p.Name)
	}
	mj, err := json.Marshal(meta)
	if err != nil {
		return fmt.Errorf("nn: export: %w", err)
	}
	var as []numpy.Array
	for _, p := range n.params {
		as = append(as, numpy.Array{Name: p.Name, Shape: p.Shape, Data: p.W})
	}
	as = append(as, numpy.Array{Name: "meta", Shape: []int{len(mj)}, Data: mj})
	if err := numpy.WriteNPZ(w, as); err != nil {
		return fmt.Errorf("nn: export: %w", err)
	}
	return nil
}

// ExportNPZ writes the network's weights to path (see WriteNPZ) atomically.
func (n *Net) ExportNPZ(path string, step int64) error {
	if err := n.CheckFinite(); err != nil {
		return fmt.Errorf("nn: not exporting %s: %w", path, err)
	}
	var buf bytes.Buffer
	if err := n.WriteNPZ(&buf, step); err != nil {
		return err
	}
	return writeFileAtomic(path, buf.Bytes())
}
