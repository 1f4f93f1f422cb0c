package capi

import (
	"math"

	"github.com/urim-rl/urim/nn"
)

// ImportNPZ writes a checkpoint at ckpt from the weights of the .npz at npz
// (the inverse of `urim nn export --npz`; nn.ReadNPZ).
func ImportNPZ(npz, ckpt string) error {
	n, step, err := nn.ImportNPZ(npz)
	if err != nil {
		return err
	}
	return nn.Save(ckpt, &nn.Checkpoint{Net: n, Step: step})
}

// ExportNPZ writes the weights of the checkpoint at ckpt to npz.
func ExportNPZ(ckpt, npz string) error {
	c, err := nn.Load(ckpt)
	if err != nil {
		return err
	}
	return c.Net.ExportNPZ(npz, c.Step)
}

// Network runs a checkpoint's forward pass for the caller.
type Network struct {
	p *nn.Predictor
}

// networkMaxBatch is the largest batch one Predict call runs; bigger
// batches are cut into pieces of it.
const networkMaxBatch = 1024

// LoadNetwork loads the checkpoint at path.
func LoadNetwork(path string) (*Network, error) {
	n, err := nn.LoadNet(path)
	if err != nil {
		return nil, err
	}
	p := n.NewPredictor(networkMaxBatch)
	p.SetThreads(1)
	return &Network{p: p}, nil
}

// SetPrecision sets the arithmetic of Predict: "fp32" or "int8"
// (nn.Precision).
func (w *Network) SetPrecision(name string) error {
	p, err := nn.ParsePrecision(name)
	if err != nil {
		return Errorf(ErrArg, "capi: %v", err)
	}
	w.p.SetPrecision(p)
	return nil
}

// Net returns the network.
func (w *Network) Net() *nn.Net { return w.p.Net() }

// Predict writes the logits (batch × Actions) and values (batch) of the
// observation rows obs (batch × InputDim).
func (w *Network) Predict(obs []float32, batch int, logits, values []float32) error {
	n := w.p.Net()
	d, p := n.InputDim(), n.Actions()
	if batch < 0 || len(obs) != batch*d || len(logits) != batch*p || len(values) != batch {
		return Errorf(ErrArg, "capi: predict: buffers for %d rows of %d inputs and %d actions do not match", batch, d, p)
	}
	if err := finiteRows(obs, d); err != nil {
		return err
	}
	for lo := 0; lo < batch; lo += networkMaxBatch {
		k := min(networkMaxBatch, batch-lo)
		l, v := w.p.Predict(obs[lo*d:(lo+k)*d], k)
		copy(logits[lo*p:(lo+k)*p], l)
		copy(values[lo:lo+k], v)
	}
	return nil
}

// finiteRows refuses a NaN or infinite input: the network's ReLUs and
// tanh would turn it into finite logits and values that look real.
func finiteRows(obs []float32, d int) error {
	for i, x := range obs {
		if f := float64(x); math.IsNaN(f) || math.IsInf(f, 0) {
			return Errorf(ErrArg, "capi: predict: row %d, input %d is %v: not finite", i/d, i%d, x)
		}
	}
	return nil
}
