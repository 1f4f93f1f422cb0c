package alphazero_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/bench"
	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)

// `urim bench az` (bench.AZ) and a training run play with the same driver
// and search: on the run's config, network and search seed, the first
// moves bench.AZ plays have, bit for bit, the visit distributions and root
// values the run recorded for the same games and plies in its replay
// window.
func TestBenchAZPlaysAsTraining(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg, err := train.LoadConfig(filepath.Join("..", "..", "configs", "tiny.yaml"), []string{"output=" + dir,
		"selfplay.opening_plies=0", "selfplay.games_per_iteration=4", "selfplay.parallel_games=4",
		"search.playout_cap.enabled=true", "search.playout_cap.fast_sims=3", "search.playout_cap.full_share=0.5",
		"stop.iterations=1", "evaluation.every=0", "workers=1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := train.Run(context.Background(), cfg, train.Options{}); err != nil {
		t.Fatal(err)
	}
	net, err := nn.LoadNet(train.CheckpointPath(dir, 0))
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ game, ply int }
	played := map[key]classic.SelfPlayMove{}
	// Iteration 1's search seed (alphazero.go); one measured round after
	// the warm-up one.
	_, err = bench.AZ(bench.AZOptions{Config: &cfg, Net: net, Moves: 1, Threads: 1, Seed: train.Derive(cfg.Seed, 0x736561726368, 1),
		OnMove: func(m *classic.SelfPlayMove) { played[key{m.Game, m.Before.Ply()}] = *m }})
	if err != nil {
		t.Fatal(err)
	}
	d, err := dataset.Open(filepath.Join(dir, "replay"))
	if err != nil {
		t.Fatal(err)
	}
	sh, err := d.LoadShard(0)
	if err != nil {
		t.Fatal(err)
	}
	tn, a := sh.Tensors, sh.Tensors.Actions
	compared, full := 0, 0
	for _, m := range played {
		if m.Search.Full {
			full++
		}
	}
	for i := 0; i < tn.N; i++ {
		m, ok := played[key{int(tn.GameID[i]), int(tn.Ply[i])}]
		if !ok {
			continue
		}
		if !m.Search.Full {
			t.Fatalf("game %d ply %d: a row in training, a fast search in bench az", tn.GameID[i], tn.Ply[i])
		}
		for k := 0; k < a; k++ {
			if tn.Policy[i*a+k] != m.Search.Policy[k] {
				t.Fatalf("game %d ply %d: training's visit distribution %v, bench az's %v", tn.GameID[i], tn.Ply[i], tn.Policy[i*a:(i+1)*a], m.Search.Policy[:a])
			}
		}
		if tn.Value[i] != m.Search.Value || int(tn.Action[i]) != m.Action {
			t.Fatalf("game %d ply %d: training's root value %v and move %d, bench az's %v and %d", tn.GameID[i], tn.Ply[i], tn.Value[i], tn.Action[i], m.Search.Value, m.Action)
		}
		compared++
	}
	if compared != full || compared == 0 {
		t.Fatalf("compared %d of bench az's %d full searches (of %d moves)", compared, full, len(played))
	}
}
