package experiment

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/urim-rl/urim/train/all"

	"github.com/urim-rl/urim/train"

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)

func TestParseAxisAndCells(t *testing.T) {
	a, err := ParseAxis("search.root=puct, gumbel")
	if err != nil || !reflect.DeepEqual(a, Axis{Key: "search.root", Values: []string{"puct", "gumbel"}}) {
		t.Fatalf("%+v, %v", a, err)
	}
	b, _ := ParseAxis("search.sims=16,32")
	cells, err := Cells(nil, []Axis{a, b})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cells {
		names = append(names, c.Name)
	}
	want := []string{"root-puct_sims-16", "root-puct_sims-32", "root-gumbel_sims-16", "root-gumbel_sims-32"}
	if !reflect.DeepEqual(names, want) || !reflect.DeepEqual(cells[2].Sets, []string{"search.root=gumbel", "search.sims=16"}) {
		t.Errorf("cells %v (%+v), want %v", names, cells[2], want)
	}
	for _, bad := range []string{"search.sims", "=3", "search.sims=", "search.sims=1,,2", "search.sims=1,1"} {
		if _, err := ParseAxis(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := Cells(nil, []Axis{a, a}); err == nil {
		t.Error("a key given twice accepted")
	}
	if _, err := Cells(nil, []Axis{{Key: "x", Values: []string{"a b", "a-b"}}}); err == nil {
		t.Error("two cells with one directory accepted")
	}
}

var tinyFile = filepath.Join("..", "..", "configs", "tiny.yaml")

// tinySweep is the sweep of the tests: puct and gumbel on tiny.yaml, three
// iterations each evaluated, rated in a few short games.
func tinySweep(out string, seeds int) Config {
	a, _ := ParseAxis("search.root=puct,gumbel")
	return Config{Base: tinyFile, Sets: []string{"stop.iterations=3", "evaluation.every=1"}, Grid: []Axis{a}, Seeds: seeds,
		Out: out, Panel: []string{"random", "greedy"}, Games: 2, RateSims: 4}
}

const childEnv = "URIM_SWEEP_TEST_CHILD"

func TestMain(m *testing.M) {
	if out := os.Getenv(childEnv); out != "" {
		c := tinySweep(out, 1)
		c.Sets = []string{"stop.iterations=40", "evaluation.every=1"} // long enough to be killed in
		if _, err := Run(context.Background(), c); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestSweepEndToEnd: two cells × two seeds of tiny.yaml, each a normal run
// directory, rated in one store, summarised; run again, nothing is trained
// or played twice; another plan in the same directory is refused.
func TestSweepEndToEnd(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sweep")
	var log bytes.Buffer
	c := tinySweep(out, 2)
	c.Log = &log
	c.Parallel = 2 // two runs at once (under the race detector in CI)
	rows, err := Run(context.Background(), c)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	for _, r := range rows {
		if r.Iterations != 3 || !(r.EloLo <= r.Elo && r.Elo <= r.EloHi) {
			t.Errorf("run %+v: want 3 iterations and a rating inside its interval", r)
		}
		if cfg, err := os.ReadFile(filepath.Join(out, r.Dir, "config.yaml")); err != nil || !strings.Contains(string(cfg), "root: "+r.Values[0]) {
			t.Errorf("%s: config.yaml does not say root: %s (%v)", r.Dir, r.Values[0], err)
		}
	}
	for _, f := range []string{"sweep.json", "summary.csv", "report.md", "elo.png", storeFile} {
		if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s missing or empty (%v)", f, err)
		}
	}
	recs := readCSV(t, filepath.Join(out, "summary.csv"))
	if len(recs) != 5 || recs[0][1] != "search.root" {
		t.Errorf("summary.csv: %v", recs)
	}
	report, _ := os.ReadFile(filepath.Join(out, "report.md"))
	for _, cell := range []string{"| root-puct | 2 |", "| root-gumbel | 2 |"} {
		if !strings.Contains(string(report), cell) {
			t.Errorf("report.md has no row %q:\n%s", cell, report)
		}
	}
	// Again: every run is done and every rating game is in the store.
	log.Reset()
	again, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), "starting") || strings.Contains(log.String(), "resuming") || !strings.Contains(log.String(), "(0 games played") {
		t.Errorf("the second run trained or played again:\n%s", log.String())
	}
	for i := range rows {
		if again[i].Elo != rows[i].Elo {
			t.Errorf("run %s rated %g, then %g", rows[i].Dir, rows[i].Elo, again[i].Elo)
		}
	}
	c.Seeds = 3
	if _, err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "another sweep") {
		t.Errorf("another plan in the same directory: %v", err)
	}
	bad := tinySweep(filepath.Join(t.TempDir(), "bad"), 1)
	bad.Grid = append(bad.Grid, Axis{Key: "search.simz", Values: []string{"3"}})
	if _, err := Run(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "search.simz") {
		t.Errorf("a bad grid key: %v", err)
	}
	if _, err := os.Stat(bad.Out); err == nil {
		t.Error("a sweep with a bad key created its directory")
	}
}

// TestSweepResumesAfterKill: a sweep killed with SIGKILL in its second run
// continues with the same command: the finished run is not trained again,
// the interrupted one resumes from its last iteration.
func TestSweepResumesAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process")
	}
	out := filepath.Join(t.TempDir(), "sweep")
	c := tinySweep(out, 1)
	c.Sets = []string{"stop.iterations=40", "evaluation.every=1"}
	p, err := c.plan()
	if err != nil {
		t.Fatal(err)
	}
	first, second := filepath.Join(out, p.Runs[0].Dir), filepath.Join(out, p.Runs[1].Dir)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		_, doneErr := os.Stat(filepath.Join(first, doneFile))
		if st, ok, _ := train.ReadState(second); doneErr == nil && ok && st.Iteration >= 2 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the sweep made no progress in 3 minutes: %s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	firstMetrics, _ := os.ReadFile(filepath.Join(first, "metrics.csv"))
	killedAt, _, _ := train.ReadState(second)
	var log bytes.Buffer
	c.Log = &log
	rows, err := Run(context.Background(), c)
	if err != nil {
		t.Fatalf("resume after kill: %v\n%s", err, log.String())
	}
	if again, _ := os.ReadFile(filepath.Join(first, "metrics.csv")); !bytes.Equal(again, firstMetrics) {
		t.Error("the finished run was trained again")
	}
	if !strings.Contains(log.String(), p.Runs[1].Dir+": resuming") || strings.Contains(log.String(), "starting") {
		t.Errorf("want the killed run resumed and none started:\n%s", log.String())
	}
	if rows[1].Iterations != 40 || killedAt.Iteration >= 40 {
		t.Errorf("the killed run (at iteration %d) ended at %d, want 40", killedAt.Iteration, rows[1].Iterations)
	}
	its := readCSV(t, filepath.Join(second, "metrics.csv"))
	if len(its) != 41 {
		t.Errorf("the resumed run's metrics.csv has %d rows, want 40 and the header", len(its))
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
