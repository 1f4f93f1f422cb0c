package alphazero

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/tablebase/tbtest"
	"github.com/urim-rl/urim/train"
)

// training.score_weight: KataGo's auxiliary score target.

// TestScoreConfig: the key is checked, with the file's line or the --set
// that gave it; above 0 a new network has the score head, at 0 none.
func TestScoreConfig(t *testing.T) {
	for _, c := range []struct {
		yaml string
		sets []string
		want string
	}{
		{"training:\n  score_weight: -0.5\n", nil, "c.yaml:2: training.score_weight: -0.5 is out of range: the weight of the score loss, from 0 (no score head) to 100"},
		{"training:\n  score_weight: 101\n", nil, "c.yaml:2: training.score_weight: 101 is out of range"},
		{"training:\n  score_weight: .nan\n", nil, "c.yaml:2: training.score_weight: .nan is not a finite number"},
		{"", []string{"training.score_weight=-1"}, "--set training.score_weight=-1: -1 is out of range"},
		{"", []string{"training.score_weight=lots"}, "--set training.score_weight=lots: want a number"},
		{"training:\n  score_wieght: 0.1\n", nil, "c.yaml:2: training.score_wieght: unknown key (known:"},
	} {
		_, err := train.ParseConfig([]byte(c.yaml), "c.yaml", c.sets)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q %v: %v, want %s", c.yaml, c.sets, err, c.want)
		}
	}
	for _, c := range []struct {
		set   string
		score bool
	}{{"training.score_weight=0", false}, {"training.score_weight=0.15", true}} {
		cfg, err := train.ParseConfig(nil, "c.yaml", []string{c.set})
		if err != nil {
			t.Fatal(err)
		}
		if a := cfg.NetArch(); a.Score != c.score || a.Width != cfg.Network.Width {
			t.Errorf("%s: a new network is %v", c.set, a)
		}
	}
}

// playGames plays n random games of g from the start, recording every
// position, and returns them with their final positions; every fourth is
// resigned by the player to move at a random ply.
func playGames(t *testing.T, g *env.Game, n int, seed uint64) ([]dataset.Game, []env.State) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var games []dataset.Game
	var finals []env.State
	for k := range n {
		rec := dataset.NewRecorder(g, env.EncodingCompact, env.RewardMatchPoints)
		rec.Start(int64(k), 0, [2]string{"x", "x"}, nil)
		s := g.Start()
		stop := -1
		if k%4 == 3 {
			stop = 2 + rng.IntN(20)
		}
		for !s.Terminal() && s.Ply() != stop {
			m := s.Legal()
			act := m.Nth(rng.IntN(m.Count()))
			search := &dataset.Search{Value: 0.25}
			search.Policy[act] = 1
			rec.Add(&s, act, search)
			s.Play(act)
		}
		var gm *dataset.Game
		if s.Terminal() {
			gm = rec.Finish(&s)
		} else {
			gm = rec.Resign(&s, s.ToMove())
		}
		games = append(games, *gm)
		finals = append(finals, s)
	}
	return games, finals
}

// TestScoreMargins: the margin of a row is its mover's final seed margin
// over the rules' seeds (the seed_margin reward of the final position), a
// resigned game conceding the seeds on the board to the winner; the window
// gives its rows theirs, and a shard's records give the same margins as the
// games in memory.
func TestScoreMargins(t *testing.T) {
	g := env.MustGame(env.Urim4)
	games, finals := playGames(t, g, 24, 5)
	for k := range games {
		gm, final := &games[k], &finals[k]
		margins := make([]float32, gm.Record.Positions)
		gm.Record.Margins(margins, gm.Ply)
		s := g.Start()
		for i := range margins {
			// The row's position, replayed: its mover.
			for s.Ply() < int(gm.Ply[i]) {
				s.Play(gm.Record.Moves[s.Ply()])
			}
			me := s.ToMove()
			var want float32
			if gm.Record.Reason == dataset.Resigned {
				f := [2]int{final.Store(0), final.Store(1)}
				w := gm.Record.Winner
				f[w] += g.Total() - f[0] - f[1]
				want = float32(f[me]-f[1-me]) / float32(g.Total())
			} else {
				want = final.Rewards(env.RewardSeedMargin)[me]
			}
			if margins[i] != want || want < -1 || want > 1 {
				t.Fatalf("game %d (%s) row %d: margin %v, want %v", k, gm.Record.Reason, i, margins[i], want)
			}
		}
	}

	// The window: its rows' margins are the games' records', in memory
	// and reloaded from the shards replay/ writes.
	dir := t.TempDir()
	w, err := dataset.Create(dir, dataset.Options{Rules: env.Urim4, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	d, a := env.NewEncoder(g, env.EncodingCompact).Dim(), g.PitsPerRow()
	win := &window{buf: newBuffer(d, a, 100000, true), limit: 100000, dim: d, a: a, w: w}
	var want []float32
	for k := range games {
		m := make([]float32, games[k].Record.Positions)
		games[k].Record.Margins(m, games[k].Ply)
		want = append(want, m...)
		win.keep(&games[k])
	}
	if _, err := win.add(); err != nil {
		t.Fatal(err)
	}
	got := win.buf.Newest(win.buf.Len())
	slices.Reverse(got.Margin)
	if !slices.Equal(got.Margin, want) {
		t.Fatalf("the window's margins are not the records'")
	}
	again := &window{buf: newBuffer(d, a, 100000, true), limit: 100000, dim: d, a: a}
	s := &train.Session{Dir: filepath.Dir(dir)}
	for _, sh := range win.shards {
		sh.Dataset = dir
		if err := again.load(s, sh); err != nil {
			t.Fatal(err)
		}
	}
	reloaded := again.buf.Newest(again.buf.Len())
	slices.Reverse(reloaded.Margin)
	if !slices.Equal(reloaded.Margin, want) {
		t.Fatalf("the margins reloaded from the shards differ from those of the games in memory")
	}
	w.Close()
	// A window without a score head holds no margins, and its batches none.
	plain := memoryWindow(d, a, 1000)
	plain.keep(&games[0])
	if _, err := plain.add(); err != nil {
		t.Fatal(err)
	}
	if plain.buf.margins() || plain.buf.Newest(5).Margin != nil {
		t.Fatal("a window without a score head holds margins")
	}
}

// TestScoreTableTargets: where the table replaces a row's value target, it
// replaces its margin with the table's exact one (the stores plus the
// table's share of the board, worked out here from the probe); the other
// rows keep their games' margins.
func TestScoreTableTargets(t *testing.T) {
	_, table := tbtest.File(t, env.Urim4, 8)
	g := env.MustGame(env.Urim4)
	tt := &tableTargets{t: table, g: g, reward: env.RewardWinLoss}
	games, _ := playGames(t, g, 30, 7)
	covered, others := 0, 0
	for k := range games {
		gm := &games[k]
		gm.Margin = make([]float32, gm.Record.Positions)
		gm.Record.Margins(gm.Margin, gm.Ply)
		before := slices.Clone(gm.Margin)
		tt.apply(&gm.Record, &gm.Columns, 0, gm.Record.Positions, g.PitsPerRow())
		s := g.Start()
		for i := range gm.Margin {
			for s.Ply() < int(gm.Ply[i]) {
				s.Play(gm.Record.Moves[s.Ply()])
			}
			want := before[i]
			if e, err := table.Probe(&s); err == nil && e.Exact() && !s.Terminal() {
				me := s.ToMove()
				f := [2]int{s.Store(me) + e.Lower, s.Store(1-me) + e.Seeds - e.Lower}
				want = float32(f[0]-f[1]) / float32(g.Total())
				covered++
			} else {
				others++
			}
			if gm.Margin[i] != want {
				t.Fatalf("game %d row %d (%v): margin %v, want %v", k, i, s.String(), gm.Margin[i], want)
			}
		}
	}
	if covered == 0 || others == 0 {
		t.Fatalf("%d covered rows and %d others: the test needs both", covered, others)
	}
}

// TestScoreTableSample: the table's rows of a batch with margins get the
// table's exact margin, and the same positions and targets as a batch
// without (the draws do not change); filling allocates nothing.
func TestScoreTableSample(t *testing.T) {
	g, table := sampleTable(t)
	enc := env.NewEncoder(g, env.EncodingCompact)
	ts := &tableSampler{t: table, g: g, enc: enc, reward: env.RewardMatchPoints, share: 0.5}
	const n = 64
	d, a := enc.Dim(), g.PitsPerRow()
	batch := func(margins bool) nn.Batch {
		b := nn.Batch{Rows: env.Rows{Obs: make([]float32, n*d), Mask: make([]bool, n*a), Policy: make([]float32, n*a), Outcome: make([]float32, n)}, N: n}
		if margins {
			b.Margin = make([]float32, n)
		}
		return b
	}
	plain, scored := batch(false), batch(true)
	from := n - ts.rows(n)
	ts.fill(&plain, from, rand.New(rand.NewPCG(4, 4)))
	ts.fill(&scored, from, rand.New(rand.NewPCG(4, 4)))
	if !slices.Equal(plain.Obs, scored.Obs) || !slices.Equal(plain.Policy, scored.Policy) || !slices.Equal(plain.Outcome, scored.Outcome) || !slices.Equal(plain.Mask, scored.Mask) {
		t.Fatal("the margins changed the table's draws")
	}
	rng := rand.New(rand.NewPCG(4, 4))
	distinct := map[float32]bool{}
	for r := from; r < n; r++ {
		s, _, _ := ts.draw(rng)
		m, ok := classic.TableMargin(table, &s)
		if !ok || scored.Margin[r] != m || m < -1 || m > 1 {
			t.Fatalf("row %d: margin %v, the table's %v (%v)", r, scored.Margin[r], m, ok)
		}
		distinct[m] = true
	}
	if len(distinct) < 3 {
		t.Errorf("margins %v: the samples' margins hardly vary", distinct)
	}
	rng = rand.New(rand.NewPCG(1, 1))
	if allocs := testing.AllocsPerRun(20, func() { ts.fill(&scored, from, rng) }); allocs != 0 {
		t.Errorf("filling the table's rows with margins allocates %v times a batch", allocs)
	}
}

// TestScoreRun: a tiny run with training.score_weight trains a network
// with the score head, reports loss_score, and a resumed run (its window
// reloaded, margins and all, from the shards) gives the network of a run
// straight through. A run from the shards of a run without the head (which
// store no margins, as no shard does) trains on them with it.
func TestScoreRun(t *testing.T) {
	sets := []string{"training.score_weight=0.5"}
	straight := filepath.Join(t.TempDir(), "straight")
	split := filepath.Join(t.TempDir(), "split")
	run := func(dir, its string, resume bool, more ...string) {
		t.Helper()
		var log bytes.Buffer
		cfg := tinyConfig(t, dir, append(append(slices.Clone(sets), more...), "stop.iterations="+its)...)
		if _, err := train.Run(context.Background(), cfg, train.Options{Resume: resume, Log: &log}); err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		on := len(sets) > 0
		if !resume && on != strings.Contains(log.String(), "+score network") {
			t.Errorf("the log names the score head: %v, want %v:\n%s", !on, on, log.String())
		}
		if on != regexp.MustCompile(`loss policy [0-9.]+ value [0-9.]+ score [0-9.]+,`).MatchString(log.String()) {
			t.Errorf("the summary lines give the score loss: %v, want %v:\n%s", !on, on, log.String())
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
	ck, err := nn.Load(train.CheckpointPath(straight, 2))
	if err != nil || !ck.Net.Arch().Score {
		t.Fatalf("the run's network: %v (%v)", ck, err)
	}
	tab, err := train.ReadMetrics(filepath.Join(straight, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if col := tab.Column("loss_score"); len(col) != 2 || !(col[0] > 0 && col[1] > 0 && col[1] < 1) {
		t.Errorf("loss_score %v", col)
	}
	if _, err := dataset.Verify(context.Background(), filepath.Join(straight, "replay"), nil); err != nil {
		t.Errorf("replay/ does not verify: %v", err)
	}

	// Without the key: no head, no column.
	off := filepath.Join(t.TempDir(), "off")
	sets = nil
	run(off, "1", false)
	if tab, _ := train.ReadMetrics(filepath.Join(off, "metrics.csv")); tab.Column("loss_score") != nil {
		t.Error("a run without training.score_weight has a loss_score column")
	}
	if ck, err := nn.Load(train.CheckpointPath(off, 1)); err != nil || ck.Net.Arch().Score {
		t.Errorf("a run without training.score_weight: %v (%v)", ck.Net.Arch(), err)
	}
	// A run with the head on the shards of that one.
	from := filepath.Join(t.TempDir(), "from")
	sets = []string{"training.score_weight=0.5", "replay.datasets=[" + filepath.Join(off, "replay") + "]"}
	run(from, "1", false)
	if tab, _ := train.ReadMetrics(filepath.Join(from, "metrics.csv")); !(tab.Column("loss_score")[0] > 0) {
		t.Errorf("loss_score %v on a window started from another run's shards", tab.Column("loss_score"))
	}
}

// TestScoreRunWithTable: the score head with table targets and table
// samples (exact margins from the table) trains.
func TestScoreRunWithTable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := tinyConfig(t, dir, "max_plies=0", "training.tablebase_seeds=5", "training.tablebase_policy=true",
		"training.tablebase_sample=0.3", "training.score_weight=0.2", "stop.iterations=1")
	if _, err := train.Run(context.Background(), cfg, train.Options{}); err != nil {
		t.Fatal(err)
	}
	tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if s := tab.Column("loss_score"); len(s) != 1 || !(s[0] > 0) || math.IsInf(s[0], 0) {
		t.Errorf("loss_score %v", s)
	}
}
