//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/syncbuf"
)

// The test binary doubles as an engine that never answers go: run as
// "<binary> urim-cmdtest-hang" it answers the handshake and then sleeps.
func init() {
	if len(os.Args) == 2 && os.Args[1] == "urim-cmdtest-hang" {
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			if strings.HasPrefix(in.Text(), "go") {
				time.Sleep(time.Hour)
			}
			fmt.Println(map[bool]string{true: "ok urim 1 hang", false: "ok"}[strings.HasPrefix(in.Text(), "urim")])
		}
		os.Exit(0)
	}
}

// TestCtrlCKillsEngines: Ctrl-C during a command reaches external engines,
// which run in process groups of their own: a move waiting for a reply with
// no timeout ends at once instead of ignoring the interrupt.
func TestCtrlCKillsEngines(t *testing.T) {
	defer classic.CloseExternalEngines()
	ctx, stop := interruptible() // catches SIGINT from here on
	defer stop()
	a, err := agents.New("external:cmd='"+os.Args[0]+" urim-cmdtest-hang',timeout=0s", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer agents.Close(a)
	done := make(chan error, 1)
	go func() {
		s := env.MustGame(env.Urim).Start()
		_, err := a.Act(&s)
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the go command reach the engine
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "interrupted") {
			t.Errorf("Act after Ctrl-C: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Ctrl-C did not end the wait for the engine")
	}
	if ctx.Err() == nil {
		t.Errorf("the command's context was not cancelled")
	}
}

// syncBuffer is the buffer a command writes and the test reads at once.
type syncBuffer = syncbuf.Buffer

// ctrlC runs a command and presses Ctrl-C (SIGINT to this process) once
// ready reports true of its standard error, again every 200 ms until it
// returns. The test holds a signal channel of its own meanwhile, so a
// SIGINT that comes before the command listens is lost rather than fatal.
func ctrlC(t *testing.T, ready func(stderr string) bool, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	var out, errw syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(args, strings.NewReader(""), &out, &errw) }()
	deadline := time.After(2 * time.Minute)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case code := <-done:
			return code, out.String(), errw.String()
		case <-tick.C:
			if ready(errw.String()) {
				_ = syscall.Kill(os.Getpid(), syscall.SIGINT)
			}
		case <-deadline:
			t.Fatalf("urim %s: still running after Ctrl-C:\n%s", strings.Join(args, " "), errw.String())
		}
	}
}

// TestCtrlCInTrain: Ctrl-C in urim train exits 130 and says what is saved
// and how to resume, without "context canceled"; the command it gives
// resumes the run.
func TestCtrlCInTrain(t *testing.T) {
	if testing.Short() {
		t.Skip("trains for a few seconds")
	}
	dir := filepath.Join(t.TempDir(), "run")
	code, _, errs := ctrlC(t, func(s string) bool { return strings.Contains(s, "iter 1:") },
		"train", "--config", filepath.Join("..", "..", "configs", "tiny.yaml"), "--set", "stop.iterations=100000", "--out", dir, "--quiet")
	if code != 130 {
		t.Fatalf("exit %d after Ctrl-C, want 130:\n%s", code, errs)
	}
	resume := "continue with: urim train --resume " + dir + "\n"
	for _, want := range []string{"urim train: interrupted during iteration ", " saved in " + dir, resume} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "context canceled") {
		t.Errorf("stderr names the cancelled context:\n%s", errs)
	}
	st, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var state struct{ Iteration int }
	if err := json.Unmarshal(st, &state); err != nil || state.Iteration < 1 {
		t.Fatalf("state.json %s: %v", st, err)
	}
	// The command it names continues the run (the stop condition may change).
	code, _, errs = urim(t, "", "train", "--resume", dir, "--set", fmt.Sprintf("stop.iterations=%d", state.Iteration+1), "--quiet")
	if code != 0 || !strings.Contains(errs, fmt.Sprintf("resuming %s after iteration %d", dir, state.Iteration)) {
		t.Errorf("the resume command: exit %d:\n%s", code, errs)
	}
}

// TestCtrlCInEvalAccuracy: Ctrl-C while an agent is scored against a
// table exits 130, says how far it got and that nothing was saved.
func TestCtrlCInEvalAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a table")
	}
	table := filepath.Join(t.TempDir(), "k4.tb")
	if code, _, errs := urim(t, "", "tablebase", "build", "--rules", "urim", "--max-seeds", "4", "--out", table, "--quiet"); code != 0 {
		t.Fatalf("tablebase build: exit %d: %s", code, errs)
	}
	start := time.Now()
	code, _, errs := ctrlC(t, func(string) bool { return time.Since(start) > 300*time.Millisecond },
		"eval", "accuracy", "--agent", "mcts:sims=5000", "--tablebase", table, "--positions", "1000000", "--quiet")
	if code != 130 {
		t.Fatalf("exit %d after Ctrl-C, want 130:\n%s", code, errs)
	}
	for _, want := range []string{"urim eval accuracy: interrupted after ", " of 1000000 positions; nothing was saved",
		"urim eval accuracy: run the command again to start over\n"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "context canceled") {
		t.Errorf("stderr names the cancelled context:\n%s", errs)
	}
}
