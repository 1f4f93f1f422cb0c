package train

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetupIsNotTrainingTime: a slow set-up (an endgame table built when a
// run starts) is reported apart and counts neither in elapsed_s nor
// against stop.time.
func TestSetupIsNotTrainingTime(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg, err := ParseConfig(nil, "", []string{"algorithm=test-counting", "output=" + dir, "stop.iterations=2",
		"stop.time=1s", "evaluation.every=0", "counting.setup_ms=1500"})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if _, err := Run(context.Background(), cfg, Options{Log: &log}); err != nil {
		t.Fatal(err)
	}
	st, _, err := ReadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Two iterations of counting take milliseconds: a budget of 1 s left
	// after a set-up of 1.5 s still runs both.
	if st.Iteration != 2 || st.ElapsedS >= 1 {
		t.Errorf("iteration %d, elapsed_s %.2f; want 2 iterations in well under the 1.5 s set-up\n%s", st.Iteration, st.ElapsedS, log.String())
	}
	if !strings.Contains(log.String(), "set-up took 1.") || !strings.Contains(log.String(), "not counted in elapsed_s or stop.time") {
		t.Errorf("the set-up is not reported apart:\n%s", log.String())
	}
}

// TestResumeFinishedRunSaysWhy: resuming a run whose stop condition holds
// names the condition and the command that extends it.
func TestResumeFinishedRunSaysWhy(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	sets := []string{"algorithm=test-counting", "output=" + dir, "stop.iterations=2", "evaluation.every=0"}
	cfg, err := ParseConfig(nil, "", sets)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), cfg, Options{}); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	sum, err := Run(context.Background(), cfg, Options{Resume: true, Log: &log})
	if err != nil || sum.Iterations != 2 {
		t.Fatalf("resume: %v, %+v", err, sum)
	}
	want := "is finished: stop.iterations is 2 and iteration 2 is done; to train on, resume it with a larger one: urim train --resume " + dir + " --set stop.iterations=4"
	if !strings.Contains(log.String(), want) {
		t.Errorf("the log lacks %q:\n%s", want, log.String())
	}
	// Extended, it trains on.
	cfg.Stop.Iterations = 3
	if sum, err := Run(context.Background(), cfg, Options{Resume: true}); err != nil || sum.Iterations != 3 {
		t.Errorf("extended: %v, %+v", err, sum)
	}
	// A time budget spent says so too.
	cfg.Stop.Iterations, cfg.Stop.Time = 0, 1
	log.Reset()
	if _, err := Run(context.Background(), cfg, Options{Resume: true, Log: &log}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "is finished: stop.time is 1ns") || !strings.Contains(log.String(), "--set stop.time=2ns") {
		t.Errorf("a spent time budget:\n%s", log.String())
	}
}
