package main

import (
	"flag"
	"fmt"

	"github.com/urim-rl/urim/nn"
)

func nnImportCommand() *command {
	return &command{
		name:  "import",
		usage: "--npz NPZ --out CKPT",
		short: "write a checkpoint from a NumPy .npz of weights (the inverse of nn export)",
		long: `Reads a .npz archive laid out as 'urim nn export --npz' writes it ("meta",
the JSON of the architecture, encoding and rules as uint8, and one float32
array per tensor, named and shaped as docs/nn.md lists them) and writes a
checkpoint of that network, with no optimizer state. A network trained in
PyTorch or numpy then plays as neural:ckpt=CKPT and az:ckpt=CKPT; Python's
urim.save_checkpoint does the same from a dict of arrays (docs/python.md).

Example:
  urim nn import --npz net.npz --out net.ckpt`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			in := fs.String("npz", "", "the .npz file to read (required)")
			out := fs.String("out", "", "the checkpoint file to write (required)")
			return func(io *stdio, args []string) error {
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q (give the archive with --npz)", args)
				}
				if *in == "" || *out == "" {
					return usageErrorf("--npz and --out are required")
				}
				return runNNImport(io, *in, *out)
			}
		},
	}
}

// runNNImport writes the checkpoint file out of the network in the .npz
// file in.
func runNNImport(io *stdio, in, out string) error {
	n, step, err := nn.ImportNPZ(in)
	if err != nil {
		return err
	}
	if err := nn.Save(out, &nn.Checkpoint{Net: n, Step: step}); err != nil {
		return err
	}
	fmt.Fprintf(io.out, "wrote %s: %v, rules %s, %s encoding, %d weights\n", out, n.Arch(), n.Rules().Name, n.Encoding(), n.NumWeights())
	return nil
}
