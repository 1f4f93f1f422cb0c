package alphazero

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/tablebase"
	"github.com/urim-rl/urim/train"
)

// sampleTable is the game and table of the sampler's tests: urim4 to 6
// seeds, with the stored best moves.
func sampleTable(t *testing.T) (*env.Game, *tablebase.Table) {
	t.Helper()
	table, _, err := tablebase.Build(context.Background(), env.Urim4, 6, tablebase.Options{StoreMoves: true})
	if err != nil {
		t.Fatal(err)
	}
	return env.MustGame(env.Urim4), table
}

// TestTableSampleRows: the rows training.tablebase_sample writes hold
// positions the table holds exactly, encoded as the run encodes, with the
// legal moves as the mask, the table's value as the value target and the
// uniform distribution over the stored best moves as the policy target;
// the rows before its share are left to the window; filling allocates
// nothing.
func TestTableSampleRows(t *testing.T) {
	g, table := sampleTable(t)
	enc := env.NewEncoder(g, env.EncodingCompact)
	ts := &tableSampler{t: table, g: g, enc: enc, reward: env.RewardMatchPoints, share: 0.25}
	const n = 64
	d, a := enc.Dim(), g.PitsPerRow()
	b := nn.Batch{Rows: env.Rows{Obs: make([]float32, n*d), Mask: make([]bool, n*a), Policy: make([]float32, n*a), Outcome: make([]float32, n)}, N: n}
	for i := range b.Outcome {
		b.Outcome[i] = 7 // untouched marker
	}
	from := n - ts.rows(n)
	if from != 48 {
		t.Fatalf("a share of 0.25 of 64 rows is %d rows, want 16", n-from)
	}
	ts.fill(&b, from, rand.New(rand.NewPCG(9, 9)))
	for r := 0; r < from; r++ {
		if b.Outcome[r] != 7 {
			t.Fatalf("row %d, before the table's share, was written", r)
		}
	}
	// The same draws again give the positions the rows were made of.
	rng := rand.New(rand.NewPCG(9, 9))
	obs := make([]float32, d)
	plies := map[int]bool{}
	for r := from; r < n; r++ {
		s, v, best := ts.draw(rng)
		plies[s.Ply()] = true
		if e, err := table.Probe(&s); err != nil || !e.Exact() {
			t.Fatalf("row %d: %v is not held exactly (%v)", r, s.String(), err)
		}
		wv, wbest, ok := classic.TableTarget(table, &s, env.RewardMatchPoints, true)
		if !ok || wv != v || wbest != best || b.Outcome[r] != v {
			t.Fatalf("row %d: value %v (row %v), best %b; the table says %v, %b", r, v, b.Outcome[r], best, wv, wbest)
		}
		enc.Encode(obs, &s)
		for i := range obs {
			if obs[i] != b.Obs[r*d+i] {
				t.Fatalf("row %d: observation column %d is %v, the position's encoding %v", r, i, b.Obs[r*d+i], obs[i])
			}
		}
		sum := float32(0)
		for i := 0; i < a; i++ {
			if b.Mask[r*a+i] != s.Legal().Has(i) {
				t.Fatalf("row %d: mask %v at %d, legal %b", r, b.Mask[r*a+i], i, s.Legal())
			}
			p := b.Policy[r*a+i]
			if (p > 0) != best.Has(i) {
				t.Fatalf("row %d: policy %v at %d, best moves %b", r, p, i, best)
			}
			sum += p
		}
		if math.Abs(float64(sum-1)) > 1e-6 {
			t.Fatalf("row %d: the policy target sums to %v", r, sum)
		}
	}
	if len(plies) < 2 {
		t.Errorf("every sampled position is at ply %v: the ply is not drawn", plies)
	}
	rng = rand.New(rand.NewPCG(1, 1))
	if allocs := testing.AllocsPerRun(20, func() { ts.fill(&b, from, rng) }); allocs != 0 {
		t.Errorf("filling the table's rows allocates %v times a batch", allocs)
	}
}

// TestTableSampleMinSeeds: training.tablebase_sample_min_seeds keeps the
// samples in the table's top layers, drawing each of them.
func TestTableSampleMinSeeds(t *testing.T) {
	g, table := sampleTable(t)
	ts := &tableSampler{t: table, g: g, enc: env.NewEncoder(g, env.EncodingCompact), reward: env.RewardMatchPoints, share: 0.5, from: 5}
	rng := rand.New(rand.NewPCG(3, 3))
	seen := map[int]int{}
	for range 400 {
		s, _, _ := ts.draw(rng)
		seen[s.RowSeeds(0)+s.RowSeeds(1)]++
	}
	if len(seen) != 2 || seen[5] == 0 || seen[6] == 0 {
		t.Errorf("seed counts drawn %v, want only 5 and 6, each drawn", seen)
	}
}

// TestTableSampleConfig: the share is checked, and needs a table.
func TestTableSampleConfig(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	for _, c := range []struct {
		sets []string
		want string
	}{
		{[]string{"training.tablebase_seeds=5", "training.tablebase_policy=true", "training.tablebase_sample=1"}, "out of range"},
		{[]string{"training.tablebase_seeds=5", "training.tablebase_policy=true", "training.tablebase_sample=-0.1"}, "out of range"},
		{[]string{"training.tablebase_sample=0.2"}, "neither training.tablebase nor training.tablebase_seeds"},
		{[]string{"training.tablebase_seeds=5", "training.tablebase_sample=0.2", "training.tablebase_sample_min_seeds=6"}, "above training.tablebase_seeds"},
		{[]string{"training.tablebase_seeds=5", "training.tablebase_sample=0.2", "training.tablebase_sample_min_seeds=-1"}, "out of range"},
	} {
		_, err := train.LoadConfig(filepath.Join("..", "..", "configs", "tiny.yaml"), append([]string{"output=" + dir, "max_plies=0"}, c.sets...))
		if err == nil || !strings.Contains(err.Error(), "training.tablebase_sample") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want an error on training.tablebase_sample saying %q", c.sets, err, c.want)
		}
	}
}

// TestTableSampleRun: a run with training.tablebase_sample trains on the
// table's rows (its network is not the one of a run without them), and a
// resumed run gives the same network as one run straight through.
func TestTableSampleRun(t *testing.T) {
	sets := []string{"max_plies=0", "training.tablebase_seeds=5", "training.tablebase_sample=0.3"}
	straight := filepath.Join(t.TempDir(), "straight")
	split := filepath.Join(t.TempDir(), "split")
	run := func(dir, its string, resume bool) {
		t.Helper()
		var log bytes.Buffer
		cfg := tinyConfig(t, dir, append(sets, "stop.iterations="+its)...)
		if _, err := train.Run(context.Background(), cfg, train.Options{Resume: resume, Log: &log}); err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
	}
	run(straight, "2", false)
	run(split, "1", false)
	run(split, "2", true)
	a, err := os.ReadFile(train.CheckpointPath(straight, 2))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(train.CheckpointPath(split, 2))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("the resumed run's network differs from the straight run's")
	}
	without := filepath.Join(t.TempDir(), "without")
	sets[len(sets)-1] = "training.tablebase_sample=0"
	run(without, "2", false)
	c, err := os.ReadFile(train.CheckpointPath(without, 2))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a, c) {
		t.Error("the run with training.tablebase_sample made the network of a run without it")
	}
}
