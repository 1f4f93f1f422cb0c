package nn

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"codeberg.org/sbinet/npyio/npz"

	"github.com/urim-rl/urim/env"
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
	bw := bufio.NewWriter(w)
	zw := npz.NewWriter(bw)
	for _, p := range n.params {
		var v any = p.W
		if len(p.Shape) == 2 {
			rows := make([][]float32, p.Shape[0])
			for i := range rows {
				rows[i] = p.W[i*p.Shape[1] : (i+1)*p.Shape[1]]
			}
			v = rows
		}
		if err := zw.Write(p.Name+".npy", v); err != nil {
			return fmt.Errorf("nn: export: %w", err)
		}
	}
	if err := zw.Write("meta.npy", mj); err != nil {
		return fmt.Errorf("nn: export: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("nn: export: %w", err)
	}
	return bw.Flush()
}

// ExportNPZ writes the network's weights to path (see WriteNPZ) atomically.
func (n *Net) ExportNPZ(path string, step int64) error {
	var buf bytes.Buffer
	if err := n.WriteNPZ(&buf, step); err != nil {
		return err
	}
	return writeFileAtomic(path, buf.Bytes())
}
