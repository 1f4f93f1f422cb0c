package main

import (
	"flag"
	"fmt"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/progress"
)

func init() {
	register(&command{
		name:  "dataset",
		usage: "inspect|verify [flags] DIR",
		short: "summarise or verify a self-play dataset",
		long: `'urim dataset inspect DIR' prints a dataset's counts (shards, games, positions,
bytes per position), game lengths, results by seat and by agent, match-point
rates (South's minus North's) and end reasons, from its manifest and game
records. --json prints the same as JSON.

'urim dataset verify DIR' checks the manifest's schema, the size and SHA-256 of
every shard file, every shard's arrays (names, dtypes, shapes, row counts), and
replays every game through the rules engine, which must reproduce every stored
observation, mask, action, ply, game id and outcome and each game's result. It
stops at the first problem and names it (file, game, ply, field); the exit
status is 1 then. --json prints what it checked as JSON.

The layout is documented in docs/dataset.md.

Examples:
  urim dataset inspect data/mcts100
  urim dataset verify data/mcts100`,
		setup: func(fs *flag.FlagSet) func(*stdio, []string) error {
			asJSON := fs.Bool("json", false, "print JSON")
			quiet := fs.Bool("quiet", false, "verify: no progress bar")
			return func(io *stdio, args []string) error {
				if len(args) != 2 || (args[0] != "inspect" && args[0] != "verify") {
					return usageErrorf("want inspect DIR or verify DIR, got %q", args)
				}
				if args[0] == "inspect" {
					return runDatasetInspect(io, args[1], *asJSON)
				}
				return runDatasetVerify(io, args[1], *asJSON, *quiet)
			}
		},
	})
}

// runDatasetInspect prints the summary of the dataset in dir.
func runDatasetInspect(io *stdio, dir string, asJSON bool) error {
	sum, err := dataset.Inspect(dir)
	if err != nil {
		return err
	}
	if asJSON {
		return evaluate.WriteJSON(io.out, sum)
	}
	return sum.WriteText(io.out)
}

// runDatasetVerify checks the dataset in dir whole and prints what it
// checked; the first problem is the error.
func runDatasetVerify(io *stdio, dir string, asJSON, quiet bool) error {
	bar := progress.To(io.err, quiet).Func("verify", "shards")
	ctx, stop := interruptible()
	defer stop()
	rep, err := dataset.Verify(ctx, dir, bar)
	if stoppedBy(ctx, err) {
		return interruption{cmd: "urim dataset verify", where: "before the end", saved: "verify changes nothing",
			resume: "run it again to check the whole dataset"}.exit(io)
	}
	if err != nil {
		return err
	}
	if asJSON {
		return evaluate.WriteJSON(io.out, struct {
			Dir       string `json:"dir"`
			OK        bool   `json:"ok"`
			Shards    int    `json:"shards"`
			Games     int    `json:"games"`
			Positions int    `json:"positions"`
			Bytes     int64  `json:"bytes"`
			Complete  bool   `json:"complete"`
		}{dir, true, rep.Shards, rep.Games, rep.Positions, rep.Bytes, rep.Complete})
	}
	fmt.Fprintf(io.out, "ok: %s: %s, %s, %s, %s; checksums, schema and replays agree\n", dir, progress.Count(rep.Shards, "shards"),
		progress.Count(rep.Games, "games"), progress.Count(rep.Positions, "positions"), progress.Count(int(rep.Bytes), "bytes"))
	if !rep.Complete {
		fmt.Fprintf(io.out, "note: the dataset is incomplete (a run under way or interrupted: resume it with urim selfplay --resume)\n")
	}
	return nil
}
