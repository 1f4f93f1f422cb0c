package dataset

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
	"time"
)

// resumeConfig is the run every resume test plays, interrupted or not.
func resumeConfig(dir string) Config {
	// Shards of about 150 positions: a game is 20 to 150 plies, so shards
	// hold one to a few games and an interrupt falls between shards. 30
	// games: an interrupt after game 5 leaves at most 5 + the window of
	// games in flight (20 with 1 worker) written.
	return Config{Agent: "mcts:sims=8", Opponent: "greedy", Games: 30, Out: dir, ShardSize: 150, Seed: 11, Workers: 1, Openings: 2}
}

// allGames loads every game of the dataset in dir, by id.
func allGames(t *testing.T, dir string) map[int64]Game {
	t.Helper()
	d, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	games := map[int64]Game{}
	for i := range d.Manifest.Shards {
		sh, err := d.LoadShard(i)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range sh.Games() {
			if _, dup := games[g.Record.ID]; dup {
				t.Fatalf("game %d is in the dataset twice", g.Record.ID)
			}
			games[g.Record.ID] = normal(g)
		}
	}
	return games
}

// checkSameAsUninterrupted verifies dir and compares its games with those of
// an uninterrupted run of the same config.
func checkSameAsUninterrupted(t *testing.T, dir string) {
	t.Helper()
	if _, err := Verify(context.Background(), dir, nil); err != nil {
		t.Fatalf("the resumed dataset does not verify: %v", err)
	}
	m, _ := ReadManifest(dir)
	if !m.Complete || m.Games != 30 {
		t.Fatalf("resumed dataset: complete %v, %d games; want complete, 30", m.Complete, m.Games)
	}
	// The reference run uses two workers: the games do not depend on it.
	ref := filepath.Join(t.TempDir(), "ref")
	refCfg := resumeConfig(ref)
	refCfg.Workers = 2
	if _, err := SelfPlay(context.Background(), refCfg, false, nil); err != nil {
		t.Fatal(err)
	}
	got, want := allGames(t, dir), allGames(t, ref)
	if len(got) != len(want) {
		t.Fatalf("%d games, the uninterrupted run has %d", len(got), len(want))
	}
	for id, w := range want {
		if !reflect.DeepEqual(got[id], w) {
			t.Fatalf("game %d differs from the uninterrupted run's", id)
		}
	}
}

func TestResumeAfterInterrupt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	ctx, cancel := context.WithCancel(context.Background())
	res, err := SelfPlay(ctx, resumeConfig(dir), false, func(done, total int) {
		if done == 5 {
			cancel() // Ctrl-C after the fifth game
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Interrupted || res.Manifest.Complete || res.Manifest.Games < 5 || res.Manifest.Games >= 30 {
		t.Fatalf("interrupted run: interrupted %v, complete %v, %d games", res.Interrupted, res.Manifest.Complete, res.Manifest.Games)
	}
	// What a kill -9 leaves: a temporary file and the shard written after
	// the last manifest; beside them, files of the user's that look like
	// shards and temporary files, which must survive.
	next, _ := shardNames(len(res.Manifest.Shards))
	os.WriteFile(filepath.Join(dir, tmpPrefix+next+"-1"), []byte("half"), 0o644)
	os.WriteFile(filepath.Join(dir, next), []byte("unlisted"), 0o644)
	foreign := []string{"shard-00099.npz", "games-00099.jsonl.gz", ".notes.tmp1", tmpPrefix + "mine"}
	for _, name := range foreign {
		os.WriteFile(filepath.Join(dir, name), []byte("the user's"), 0o644)
	}
	if _, err := SelfPlay(context.Background(), resumeConfig(dir), false, nil); err == nil {
		t.Fatal("a second run without resume overwrote the dataset")
	}
	res2, err := SelfPlay(context.Background(), resumeConfig(dir), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res2.Resumed != res.Manifest.Games || res2.Resumed+res2.Played != 30 || len(res2.Removed) != 2 {
		t.Fatalf("resumed run: resumed %d, played %d, removed %v", res2.Resumed, res2.Played, res2.Removed)
	}
	for _, name := range foreign {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("resume deleted %s, a file it did not write: %v", name, err)
		}
		os.Remove(filepath.Join(dir, name))
	}
	checkSameAsUninterrupted(t, dir)
}

func TestResumeRefusesAnotherConfig(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ds")
	cfg := resumeConfig(dir)
	cfg.Games = 2
	if _, err := SelfPlay(context.Background(), cfg, false, nil); err != nil {
		t.Fatal(err)
	}
	cfg.Seed++
	if _, err := SelfPlay(context.Background(), cfg, true, nil); err == nil {
		t.Fatal("resumed a dataset with another seed")
	}
}

// TestResumeAfterKill runs self-play in a child process, kills it with
// SIGKILL once a shard is listed, and resumes.
func TestResumeAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	dir := filepath.Join(t.TempDir(), "ds")
	cmd := exec.Command(os.Args[0], "-test.run=^TestSelfPlayChild$")
	cmd.Env = append(os.Environ(), "URIM_DATASET_CHILD="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		if m, err := ReadManifest(dir); err == nil && m.Games > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the child listed no shard in 60s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatalf("after kill -9: %v", err)
	}
	js, _ := json.Marshal(m.Shards)
	t.Logf("killed with %d games listed: %s", m.Games, js)
	if _, err := SelfPlay(context.Background(), resumeConfig(dir), true, nil); err != nil {
		t.Fatal(err)
	}
	checkSameAsUninterrupted(t, dir)
}

// TestSelfPlayChild is the child of TestResumeAfterKill; it does nothing in
// a normal test run.
func TestSelfPlayChild(t *testing.T) {
	dir := os.Getenv("URIM_DATASET_CHILD")
	if dir == "" {
		t.Skip("only as the child of TestResumeAfterKill")
	}
	SelfPlay(context.Background(), resumeConfig(dir), false, func(done, total int) {
		time.Sleep(20 * time.Millisecond) // slow enough to be killed mid-run
	})
}
