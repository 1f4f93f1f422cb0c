package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/tablebase"
)

// fixture is a served tree: a dataset, a game store, a games.csv, a rules
// file, a training run, an endgame table, and a file outside it all (with a
// symlink to it from inside).
type fixture struct {
	dir, data, runs, tb, outside string
}

var (
	fixOnce sync.Once
	fix     fixture
	fixErr  error
)

// tableSeeds is the size of the fixture's table: small enough to build in
// a moment, big enough to cover the end of most games.
const tableSeeds = 8

// TestMain removes the fixture's tree after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if fix.dir != "" {
		os.RemoveAll(fix.dir)
	}
	os.Exit(code)
}

// testFixture builds the tree once per test binary.
func testFixture(t testing.TB) fixture {
	t.Helper()
	fixOnce.Do(func() { fix, fixErr = buildFixture() })
	if fixErr != nil {
		t.Fatal(fixErr)
	}
	return fix
}

func buildFixture() (fixture, error) {
	dir, err := os.MkdirTemp("", "urim-web-test-")
	if err != nil {
		return fixture{}, err
	}
	f := fixture{dir: dir, data: filepath.Join(dir, "data"), runs: filepath.Join(dir, "runs"),
		tb: filepath.Join(dir, "urim8.tb"), outside: filepath.Join(dir, "outside")}
	for _, d := range []string{f.data, f.runs, f.outside, filepath.Join(f.data, "tourney"), filepath.Join(f.runs, "run1", "selfplay")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return f, err
		}
	}
	ctx := context.Background()
	if _, err := dataset.SelfPlay(ctx, dataset.Config{Agent: "greedy", Opponent: "random", Games: 8, Seed: 5, Workers: 1,
		Out: filepath.Join(f.data, "selfplay")}, false, nil); err != nil {
		return f, err
	}
	g := env.MustGame(env.Urim)
	games := func(n int, a, b string) ([]evaluate.Record, error) {
		var out []evaluate.Record
		for i := range n {
			pa, _ := agents.New(a, uint64(2*i+1))
			pb, _ := agents.New(b, uint64(2*i+2))
			r, err := evaluate.Play(ctx, g, [2]agents.Agent{pa, pb}, g.RandomOpening(2, uint64(i)))
			if err != nil {
				return nil, err
			}
			r.Players, r.Specs, r.Seed, r.Index = [2]string{a, b}, [2]string{a, b}, uint64(i), i
			out = append(out, r)
		}
		return out, nil
	}
	store := func(path string, recs []evaluate.Record) error {
		st, err := evaluate.OpenStore(path)
		if err != nil {
			return err
		}
		for _, r := range recs {
			st.Add(r)
		}
		return st.Save()
	}
	recs, err := games(6, "random", "greedy")
	if err != nil {
		return f, err
	}
	if err := store(filepath.Join(f.data, "tourney", "games.jsonl"), recs); err != nil {
		return f, err
	}
	// Players with long names, as tournaments of networks have them (the
	// replay list must wrap them, not run onto the board: issue 31, 7).
	long, err := games(2, "greedy", "random")
	if err != nil {
		return f, err
	}
	for i := range long {
		long[i].Players = [2]string{"az:ckpt=runs0/run1/checkpoints/iteration-0042.ckpt,sims=800,c=1.25,batch=8,threads=2",
			"mcts:sims=20000,c=1.4,rollouts=4,cutoff=40,threads=2,reward=seed_margin"}
		long[i].Specs = long[i].Players
	}
	if err := os.MkdirAll(filepath.Join(f.data, "long"), 0o755); err != nil {
		return f, err
	}
	if err := store(filepath.Join(f.data, "long", "games.jsonl"), long); err != nil {
		return f, err
	}
	var csv bytes.Buffer
	if err := evaluate.WriteCSV(&csv, recs); err != nil {
		return f, err
	}
	if err := os.WriteFile(filepath.Join(f.data, "tourney", "games.csv"), csv.Bytes(), 0o644); err != nil {
		return f, err
	}
	if err := os.WriteFile(filepath.Join(f.data, "urim5.yaml"), []byte("preset: urim\nname: urim5\nseeds_per_pit: 5\n"), 0o644); err != nil {
		return f, err
	}
	// The training run: metrics.csv as train writes it, a config, samples.
	run := filepath.Join(f.runs, "run1")
	metrics := "iteration,elapsed_s,games,positions,mean_plies,resigned,false_resign,selfplay_s,positions_per_s,buffer,train_steps,steps_per_s,lr,policy_loss,value_loss,entropy,kl,score_random,elo,elo_lo95,elo_hi95,best\n" +
		"1,10,64,4000,62,0,0,5,800,4000,50,10,0.001,1.6,0.9,1.5,0.01,0.6,70,20,120,1\n" +
		"2,20,64,4100,60,0,0,5,820,8100,50,10,0.001,1.4,0.7,1.3,0.008,,,,,1\n" +
		"3,30,64,4200,58,1,0,5,840,12300,50,10,0.001,1.2,0.6,1.2,0.006,0.8,240,180,300,3\n"
	if err := os.WriteFile(filepath.Join(run, "metrics.csv"), []byte(metrics), 0o644); err != nil {
		return f, err
	}
	if err := os.WriteFile(filepath.Join(run, "config.yaml"), []byte("name: run1\n"), 0o644); err != nil {
		return f, err
	}
	// A stand-in for the run's best network: the listings name it, nothing
	// loads it.
	if err := os.MkdirAll(filepath.Join(run, "checkpoints"), 0o755); err != nil {
		return f, err
	}
	if err := os.WriteFile(filepath.Join(run, runBest), []byte("not a network"), 0o644); err != nil {
		return f, err
	}
	samples, err := games(3, "greedy", "random")
	if err != nil {
		return f, err
	}
	for i := range samples { // named as train names them: the iteration in the specs
		spec := fmt.Sprintf("selfplay:iter=%d", i+1)
		samples[i].Players, samples[i].Specs = [2]string{"selfplay", "selfplay"}, [2]string{spec, spec}
	}
	if err := store(filepath.Join(run, "selfplay", "games.jsonl"), samples); err != nil {
		return f, err
	}
	t, _, err := tablebase.Build(ctx, env.Urim, tableSeeds, tablebase.Options{Workers: 1})
	if err != nil {
		return f, err
	}
	if err := t.Save(f.tb); err != nil {
		return f, err
	}
	// Outside: a store nobody may read, and a symlink to it from inside.
	if err := store(filepath.Join(f.outside, "secret.jsonl"), recs[:1]); err != nil {
		return f, err
	}
	if err := os.Symlink(f.outside, filepath.Join(f.data, "escape")); err != nil {
		return f, err
	}
	return f, nil
}

// newTestServer serves the fixture with cfg's limits.
func newTestServer(t testing.TB, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	f := testFixture(t)
	cfg.Data = PathList{f.data}
	cfg.Runs = PathList{f.runs}
	if cfg.Tablebase == "" {
		cfg.Tablebase = f.tb
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts
}

// call sends a request and decodes the JSON answer into out (when not
// nil); it returns the status and the body.
func call(t testing.TB, ts *httptest.Server, method, path string, body any, out any) (int, string) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, ts.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if out != nil && res.StatusCode == http.StatusOK {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	return res.StatusCode, string(data)
}

var (
	storedOnce sync.Once
	storedTB   string
	storedErr  error
)

// storedTable is a table of 6 seeds with its stored best-move sets
// (tablebase.Options.StoreMoves: too slow to build for the fixture's 8), in
// the fixture's tree, built once per test binary for the tests that grade
// by them.
func storedTable(t testing.TB) string {
	t.Helper()
	f := testFixture(t)
	storedOnce.Do(func() {
		tb, _, err := tablebase.Build(context.Background(), env.Urim, 6, tablebase.Options{Workers: 2, StoreMoves: true})
		if err != nil {
			storedErr = err
			return
		}
		storedTB = filepath.Join(f.dir, "urim6-stored.tb")
		storedErr = tb.Save(storedTB)
	})
	if storedErr != nil {
		t.Fatal(storedErr)
	}
	return storedTB
}
