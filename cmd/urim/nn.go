package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/nn"
)

// nnCommands are the children of "urim nn".
var nnCommands = map[string]*command{}

func init() {
	register(&command{
		name:  "nn",
		usage: "<new|export|import|info> [flags] [arguments]",
		short: "policy-value networks: create, inspect, export to numpy",
		long: `Makes, inspects and exports the networks of the neural agents (docs/nn.md).

Examples:
  urim nn new --arch mlp --width 256 --depth 3 --rules urim --out net.ckpt
  urim nn new --arch resmlp --width 128 --depth 4 --layernorm --encoding thermometer --out res.ckpt
  urim nn info net.ckpt
  urim nn export net.ckpt --npz net.npz`,
		sub: func(string) bool { return true },
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			return func(io *stdio, args []string) error {
				names := make([]string, 0, len(nnCommands))
				for n := range nnCommands {
					names = append(names, n)
				}
				sort.Strings(names)
				if len(args) == 0 {
					return usageErrorf("name a subcommand: %s", strings.Join(names, ", "))
				}
				c, ok := nnCommands[args[0]]
				if !ok {
					return usageErrorf("unknown subcommand %q (known: %s)", args[0], strings.Join(names, ", "))
				}
				return runChild(io, "urim nn", c, args[1:])
			}
		},
	})
	for _, c := range []*command{nnNewCommand(), nnExportCommand(), nnImportCommand(), nnInfoCommand()} {
		nnCommands[c.name] = c
	}
}

// nnNewOptions are the flags of "urim nn new".
type nnNewOptions struct {
	arch     nn.Arch
	rules    string
	encoding string
	seed     uint64
	out      string
}

func nnNewCommand() *command {
	return &command{
		name:  "new",
		usage: "[--arch mlp] [--width 256] [--depth 3] [--layernorm] [--score] [--rules urim] [--encoding compact] [--seed 1] --out CKPT",
		short: "write an untrained network",
		long: `Writes a network with fresh seeded weights and no optimizer state to a
checkpoint, so that every agent and loop can be tried before any training.

Examples:
  urim nn new --out net.ckpt
  urim nn new --arch resmlp --width 128 --depth 4 --layernorm --rules oware --seed 7 --out oware.ckpt`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			o := nnNewOptions{arch: nn.DefaultArch()}
			fs.StringVar(&o.arch.Kind, "arch", o.arch.Kind, "architecture: mlp or resmlp")
			fs.IntVar(&o.arch.Width, "width", o.arch.Width, "units per hidden layer")
			fs.IntVar(&o.arch.Depth, "depth", o.arch.Depth, "hidden layers (mlp) or residual blocks (resmlp)")
			fs.BoolVar(&o.arch.LayerNorm, "layernorm", false, "layer norm before every ReLU")
			fs.BoolVar(&o.arch.Score, "score", false, "add the score head (final seed margin; training.score_weight trains it)")
			fs.StringVar(&o.rules, "rules", "urim", rulesUsage)
			fs.StringVar(&o.encoding, "encoding", "compact", "observation encoding: compact or thermometer")
			fs.Uint64Var(&o.seed, "seed", 1, "seed of the initial weights")
			fs.StringVar(&o.out, "out", "", "checkpoint file to write (required)")
			return func(io *stdio, args []string) error {
				if len(args) > 0 {
					return usageErrorf("unexpected arguments %q", args)
				}
				if o.out == "" {
					return usageErrorf("--out is required")
				}
				return runNNNew(io, o)
			}
		},
	}
}

// runNNNew writes the untrained network the options describe.
func runNNNew(io *stdio, o nnNewOptions) error {
	if err := o.arch.Validate(); err != nil {
		return usageErrorf("%v", err)
	}
	enc, err := env.ParseEncoding(o.encoding)
	if err != nil {
		return usageErrorf("--encoding: %v", err)
	}
	g, err := loadGame(o.rules)
	if err != nil {
		return err
	}
	n, err := nn.New(o.arch, g.Rules(), enc, o.seed)
	if err != nil {
		return err
	}
	if err := nn.Save(o.out, &nn.Checkpoint{Net: n}); err != nil {
		return err
	}
	fmt.Fprintf(io.out, "wrote %s: %v, rules %s, %s encoding, %d weights\n", o.out, n.Arch(), g.Name(), enc, n.NumWeights())
	return nil
}

func nnExportCommand() *command {
	return &command{
		name:  "export",
		usage: "CKPT --npz OUT",
		short: "write a network's weights as a NumPy .npz",
		long: `Writes one float32 array per tensor of the checkpoint's network, and "meta"
(architecture, encoding, rules and tensor names as JSON bytes), to a .npz
archive (--out is the same as --npz). docs/nn.md has the numpy code that
rebuilds the forward pass.

Example:
  urim nn export net.ckpt --npz net.npz`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			out := fs.String("npz", "", "the .npz file to write (required)")
			fs.StringVar(out, "out", "", "the same as --npz, the name other commands give their output")
			return func(io *stdio, args []string) error {
				path, err := nnCheckpointArg(args)
				if err != nil {
					return err
				}
				if *out == "" {
					return usageErrorf("--npz is required")
				}
				return runNNExport(io, path, *out)
			}
		},
	}
}

// runNNExport writes the weights of the checkpoint file ckpt to the .npz
// file out.
func runNNExport(io *stdio, ckpt, out string) error {
	c, err := nn.Load(ckpt)
	if err != nil {
		return err
	}
	if err := c.Net.ExportNPZ(out, c.Step); err != nil {
		return err
	}
	fmt.Fprintf(io.out, "wrote %s: %d tensors, %d weights\n", out, len(c.Net.Params()), c.Net.NumWeights())
	return nil
}

// nnInfo is what "urim nn info" prints.
type nnInfo struct {
	File      string    `json:"file"`
	Bytes     int64     `json:"bytes"`
	Arch      nn.Arch   `json:"arch"`
	Rules     env.Rules `json:"rules"`
	Encoding  string    `json:"encoding"`
	InputDim  int       `json:"input_dim"`
	Actions   int       `json:"actions"`
	Weights   int       `json:"weights"`
	Step      int64     `json:"step"`
	Optimizer bool      `json:"optimizer_state"`
	Tensors   []string  `json:"tensors"`
}

func nnInfoCommand() *command {
	return &command{
		name:  "info",
		usage: "[--json] CKPT",
		short: "describe a checkpoint",
		long: `Checks a checkpoint (magic, version, checksums, shapes) and describes it:
architecture, rules, encoding, weights, training step, optimizer state.

Example:
  urim nn info net.ckpt`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			asJSON := fs.Bool("json", false, "print JSON")
			return func(io *stdio, args []string) error {
				path, err := nnCheckpointArg(args)
				if err != nil {
					return err
				}
				return runNNInfo(io, path, *asJSON)
			}
		},
	}
}

// runNNInfo checks the checkpoint file path and describes it.
func runNNInfo(io *stdio, path string, asJSON bool) error {
	c, err := nn.Load(path)
	if err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	n := c.Net
	info := nnInfo{File: path, Bytes: st.Size(), Arch: n.Arch(), Rules: n.Rules(), Encoding: n.Encoding().String(),
		InputDim: n.InputDim(), Actions: n.Actions(), Weights: n.NumWeights(), Step: c.Step, Optimizer: c.Optimizer != nil}
	for _, p := range n.Params() {
		info.Tensors = append(info.Tensors, fmt.Sprintf("%s %v", p.Name, p.Shape))
	}
	if asJSON {
		return evaluate.WriteJSON(io.out, info)
	}
	fmt.Fprintf(io.out, "%s: %d bytes, checkpoint format %d\n", info.File, info.Bytes, nn.CheckpointVersion)
	fmt.Fprintf(io.out, "architecture  %v\n", info.Arch)
	fmt.Fprintf(io.out, "heads         %s\n", map[bool]string{true: "policy, value, score (final seed margin)", false: "policy, value (no score head)"}[info.Arch.Score])
	fmt.Fprintf(io.out, "rules         %v\n", info.Rules)
	fmt.Fprintf(io.out, "encoding      %s (%d inputs), %d actions\n", info.Encoding, info.InputDim, info.Actions)
	fmt.Fprintf(io.out, "weights       %d in %d tensors\n", info.Weights, len(info.Tensors))
	fmt.Fprintf(io.out, "step          %d\n", info.Step)
	fmt.Fprintf(io.out, "optimizer     %v\n", map[bool]string{true: "AdamW state saved", false: "none"}[info.Optimizer])
	for _, t := range info.Tensors {
		fmt.Fprintf(io.out, "  %s\n", t)
	}
	return nil
}

// nnCheckpointArg returns the one checkpoint argument.
func nnCheckpointArg(args []string) (string, error) {
	if len(args) != 1 {
		return "", usageErrorf("name one checkpoint file (got %d arguments)", len(args))
	}
	return args[0], nil
}
