package main

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urim-rl/urim/bench"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/nn/kernels"
)

func init() {
	registerBenchmark(&command{
		name:  "nn",
		usage: "[--arch mlp --width 256 --depth 3 [--layernorm]] [--rules urim] [--encoding compact] [--train 256,1024] [--predict 1,64,512] [--threads 1,2] [--backends all] [--precision fp32,int8] [--round 200ms] [--rounds 5] [--json]",
		short: "networks: training steps per second and positions per second",
		long: `Measures the policy-value network (docs/nn.md): training steps per second
(forward, loss, backward, clipping, AdamW) at each --train batch size, and
positions per second of inference at each --predict batch size, on each
thread count, kernels back-end and --precision (int8: the hidden layers'
products in int8, docs/nn.md). Every configuration runs for --round in
each of --rounds interleaved rounds, and the figure is the median, with the
spread (max-min)/median showing the machine's noise. scripts/torch_bench.sh
runs the same network in PyTorch for the ratios.

Examples:
  urim bench nn
  urim bench nn --backends all --rounds 9 --json
  urim bench nn --arch resmlp --width 128 --layernorm --train none --predict 1,512 --threads 1 --precision fp32,int8
  urim bench nn --arch resmlp --width 128 --depth 4 --layernorm --predict 1,256`,
	}, func(fs *flag.FlagSet) func(*stdio, *benchOutput) error {
		f := &nnBenchFlags{arch: nn.DefaultArch()}
		f.bind(fs)
		return func(_ *stdio, out *benchOutput) error {
			o, err := f.options()
			if err != nil {
				return err
			}
			return runNNBench(out, o)
		}
	})
}

// nnBenchFlags are the flags of urim bench nn before they are checked.
type nnBenchFlags struct {
	arch                                              nn.Arch
	rules                                             *string
	enc, train, predict, threads, backends, precision string
	round                                             time.Duration
	rounds                                            int
}

func (f *nnBenchFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&f.arch.Kind, "arch", f.arch.Kind, "architecture: mlp or resmlp")
	fs.IntVar(&f.arch.Width, "width", f.arch.Width, "units per hidden layer")
	fs.IntVar(&f.arch.Depth, "depth", f.arch.Depth, "hidden layers (mlp) or residual blocks (resmlp)")
	fs.BoolVar(&f.arch.LayerNorm, "layernorm", false, "layer norm before every ReLU")
	f.rules = rulesFlag(fs)
	fs.StringVar(&f.enc, "encoding", "compact", "observation encoding: compact or thermometer")
	fs.StringVar(&f.train, "train", "256,1024", "comma-separated training batch sizes (\"none\" to skip)")
	fs.StringVar(&f.predict, "predict", "1,64,512", "comma-separated inference batch sizes (\"none\" to skip)")
	fs.StringVar(&f.threads, "threads", "1,2", "comma-separated thread counts")
	fs.StringVar(&f.backends, "backends", "", "comma-separated kernels back-ends, or all (default: the one in use, "+kernels.Backend()+")")
	fs.StringVar(&f.precision, "precision", "fp32", "comma-separated precisions of inference: fp32, int8")
	fs.DurationVar(&f.round, "round", 200*time.Millisecond, "time per configuration per round")
	fs.IntVar(&f.rounds, "rounds", 5, "interleaved rounds; figures are medians")
}

// options checks the flags and returns the harness's options, the rules'
// loaded.
func (f *nnBenchFlags) options() (bench.NNOptions, error) {
	if err := f.arch.Validate(); err != nil {
		return bench.NNOptions{}, usageErrorf("%v", err)
	}
	o := bench.NNOptions{Arch: f.arch, Round: f.round, Rounds: f.rounds}
	var err error
	if o.Encoding, err = env.ParseEncoding(f.enc); err != nil {
		return o, usageErrorf("--encoding: %v", err)
	}
	if o.TrainBatches, err = nnBenchInts("--train", f.train); err != nil {
		return o, err
	}
	if o.PredictBatches, err = nnBenchInts("--predict", f.predict); err != nil {
		return o, err
	}
	if o.Threads, err = benchInts("--threads", f.threads, math.MaxInt); err != nil {
		return o, err
	}
	if f.round <= 0 || f.rounds < 1 {
		return o, usageErrorf("--round and --rounds must be positive")
	}
	for _, name := range strings.Split(f.precision, ",") {
		p, err := nn.ParsePrecision(name)
		if err != nil {
			return o, usageErrorf("--precision: %v", err)
		}
		o.Precisions = append(o.Precisions, p)
	}
	switch f.backends {
	case "":
	case "all":
		o.Backends = kernels.Backends()
	default:
		o.Backends = strings.Split(f.backends, ",")
		for _, b := range o.Backends {
			if !slices.Contains(kernels.Backends(), b) {
				return o, usageErrorf("--backends: %q is not available (available: %s)", b, strings.Join(kernels.Backends(), ", "))
			}
		}
	}
	g, err := loadGame(*f.rules)
	if err != nil {
		return o, err
	}
	o.Rules = g.Rules()
	return o, nil
}

// runNNBench measures the network in every configuration of o and writes
// the rows.
func runNNBench(out *benchOutput, o bench.NNOptions) error {
	bar := out.bar(bench.NNMeasurements(o), "bench nn", "runs")
	o.Progress = func() { bar.Add(1) }
	rows, err := bench.RunNN(o)
	bar.Finish()
	if err != nil {
		return err
	}
	return out.write(rows, func(tw *tabwriter.Writer) { nnTable(tw, rows) })
}

// nnBenchInts parses a batch list, where "none" is the empty list.
func nnBenchInts(flagName, list string) ([]int, error) {
	if list == "none" {
		return []int{}, nil
	}
	return benchInts(flagName, list, math.MaxInt)
}

// nnTable writes rows as a table.
func nnTable(tw *tabwriter.Writer, rows []bench.NNRow) {
	fmt.Fprintln(tw, "backend\tkind\tprecision\tarch\tbatch\tthreads\tsteps/s\tpositions/s\tµs/step\tcpu µs/step\tspread\tallocs/step\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%.1f\t%.0f\t%.1f\t%.1f\t%.0f%%\t%.2f\t\n", r.Backend, r.Kind, r.Precision, r.Arch, r.Batch, r.Threads,
			r.StepsPerSec, r.PositionsPerSec, r.MicrosPerStep, r.CPUMicrosPerStep, 100*r.Spread, r.AllocsPerStep)
	}
}
