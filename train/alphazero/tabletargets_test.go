package alphazero

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/tablebase"
	"github.com/urim-rl/urim/tablebase/tbtest"
	"github.com/urim-rl/urim/train"
)

// TestTableTargetsReplaceExactlyTheCoveredPositions: over random games
// with a row at every position (some rows without a policy), the rows whose
// position the table holds exactly get the table's value (worked out here
// from the probe: the mover ends with its store plus the table's seeds) and,
// with policy, the uniform distribution over tablebase.Best's moves; every
// other row is left as it was.
func TestTableTargetsReplaceExactlyTheCoveredPositions(t *testing.T) {
	rules := env.Urim4
	_, table := tbtest.File(t, rules, 8)
	g := env.MustGame(rules)
	a := g.PitsPerRow()
	rng := rand.New(rand.NewPCG(3, 0))
	covered, others := 0, 0
	for _, policy := range []bool{false, true} {
		tt := &tableTargets{t: table, g: g, reward: env.RewardMatchPoints, policy: policy}
		rec := dataset.NewRecorder(g, env.EncodingCompact, env.RewardMatchPoints)
		for k := range 30 {
			rec.Start(int64(k), 0, [2]string{"x", "x"}, nil)
			s := g.Start()
			var states []env.State
			for !s.Terminal() {
				m := s.Legal()
				act := m.Nth(rng.IntN(m.Count()))
				var search *dataset.Search
				if rng.IntN(4) > 0 {
					search = &dataset.Search{Value: 0.25}
					search.Policy[act] = 1
				}
				rec.Add(&s, act, search)
				states = append(states, s)
				s.Play(act)
			}
			game := rec.Finish(&s)
			before := dataset.Columns{Outcome: slices.Clone(game.Outcome), Policy: slices.Clone(game.Policy)}
			n := tt.apply(&game.Record, &game.Columns, 0, game.Record.Positions, a)
			replaced := 0
			for i, st := range states {
				wantV, wantP := before.Outcome[i], before.Policy[i*a:(i+1)*a]
				e, err := table.Probe(&st)
				if game.HasPolicy[i] && err == nil && e.Exact() {
					me := st.ToMove()
					f := [2]int{st.Store(me) + e.Lower, st.Store(1-me) + e.Seeds - e.Lower}
					mp := env.MatchPoints(f, g.Total())
					wantV = float32(mp[0]-mp[1]) / 2
					if policy {
						moves, _ := table.Moves(&st)
						best := tablebase.Best(moves)
						wantP = make([]float32, a)
						for _, m := range best {
							wantP[m.Action] = 1 / float32(len(best))
						}
					}
					replaced++
					covered++
				} else {
					others++
				}
				if game.Outcome[i] != wantV || !slices.Equal(game.Policy[i*a:(i+1)*a], wantP) {
					t.Fatalf("game %d, row %d (%v): value %g policy %v, want %g %v", k, i, st, game.Outcome[i], game.Policy[i*a:(i+1)*a], wantV, wantP)
				}
			}
			if n != replaced {
				t.Fatalf("game %d: apply reports %d rows, %d were covered", k, n, replaced)
			}
		}
	}
	if covered == 0 || others == 0 {
		t.Fatalf("%d covered rows and %d others: the test needs both", covered, others)
	}
	t.Logf("%d rows covered, %d not", covered, others)
}

// TestTableTargetsRun: a tiny run with training.tablebase counts its table
// targets in metrics.csv, and a resumed run reloads its window with them.
func TestTableTargetsRun(t *testing.T) {
	path, _ := tbtest.File(t, env.Urim4, 8)
	dir := filepath.Join(t.TempDir(), "run")
	cfg := tinyConfig(t, dir, "max_plies=0", "training.tablebase="+path, "training.tablebase_policy=true", "stop.iterations=1")
	if _, err := train.Run(context.Background(), cfg, train.Options{}); err != nil {
		t.Fatal(err)
	}
	cfg = tinyConfig(t, dir, "max_plies=0", "training.tablebase="+path, "training.tablebase_policy=true", "stop.iterations=2")
	if _, err := train.Run(context.Background(), cfg, train.Options{Resume: true}); err != nil {
		t.Fatal(err)
	}
	tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	col := tab.Column("table_targets")
	total := 0.0
	for _, v := range col {
		total += v
	}
	if len(col) != 2 || !(total > 0) {
		t.Errorf("table_targets %v: want two iterations, some positions covered", col)
	}
	if _, err := dataset.Verify(context.Background(), filepath.Join(dir, "replay"), nil); err != nil {
		t.Errorf("replay/ does not verify (its outcomes must stay the games'): %v", err)
	}
}

// TestTableSeedsRun: training.tablebase_seeds builds the table into the run
// directory, takes table targets from it, loads it again on resume instead
// of building it, and builds it again when the file there is damaged.
func TestTableSeedsRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	run := func(its int, resume bool) string {
		t.Helper()
		var log bytes.Buffer
		cfg := tinyConfig(t, dir, "max_plies=0", "training.tablebase_seeds=6", "stop.iterations="+strconv.Itoa(its))
		if _, err := train.Run(context.Background(), cfg, train.Options{Resume: resume, Log: &log}); err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		return log.String()
	}
	path := filepath.Join(dir, RunTableFile(6))
	if log := run(1, false); !strings.Contains(log, "building the endgame table of up to 6 seeds") {
		t.Errorf("a new run did not say it builds its table:\n%s", log)
	}
	tb, err := tablebase.LoadFor(path, env.Urim4)
	if err != nil || tb.MaxSeeds() != 6 {
		t.Fatalf("the run's table: %v", err)
	}
	if log := run(2, true); strings.Contains(log, "building") {
		t.Errorf("a resumed run built its table again:\n%s", log)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 0xff
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if log := run(3, true); !strings.Contains(log, "building it again") {
		t.Errorf("a damaged table was not built again:\n%s", log)
	}
	if _, err := tablebase.LoadFor(path, env.Urim4); err != nil {
		t.Errorf("the table built again: %v", err)
	}
	tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range tab.Column("table_targets") {
		if !(v > 0) {
			t.Errorf("iteration %d: table_targets %v, want some positions covered", i+1, v)
		}
	}
}

// TestTableSeedsPolicyRun: with training.tablebase_policy the table of
// training.tablebase_seeds is built with its stored best moves (the policy
// targets read them in one probe), and a table in the run directory
// without them is built again.
func TestTableSeedsPolicyRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	path := filepath.Join(dir, RunTableFile(5))
	run := func(its int, resume bool) string {
		t.Helper()
		var log bytes.Buffer
		cfg := tinyConfig(t, dir, "max_plies=0", "training.tablebase_seeds=5", "training.tablebase_policy=true", "stop.iterations="+strconv.Itoa(its))
		if _, err := train.Run(context.Background(), cfg, train.Options{Resume: resume, Log: &log}); err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		return log.String()
	}
	stored := func() bool {
		t.Helper()
		tb, err := tablebase.LoadFor(path, env.Urim4)
		if err != nil {
			t.Fatal(err)
		}
		return tb.HasStoredMoves()
	}
	run(1, false)
	if !stored() {
		t.Fatal("the run's table has no stored best moves")
	}
	plain, _, err := tablebase.Build(context.Background(), env.Urim4, 5, tablebase.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.Save(path); err != nil {
		t.Fatal(err)
	}
	if log := run(2, true); !strings.Contains(log, "has no stored best moves") {
		t.Errorf("a table without its best moves was not built again:\n%s", log)
	}
	if !stored() {
		t.Fatal("the table built again has no stored best moves")
	}
	tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range tab.Column("table_targets") {
		if !(v > 0) {
			t.Errorf("iteration %d: table_targets %v, want some positions covered", i+1, v)
		}
	}
}
