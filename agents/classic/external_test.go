package classic

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// The test binary doubles as an engine: run as "<binary> urim-test-engine
// MODE" it serves the protocol (MODE serve:SPEC) or misbehaves in one way,
// so the external agent is tested against a real process without building
// anything. init runs before the tests, so no TestMain is needed.
func init() {
	if len(os.Args) == 3 && os.Args[1] == "urim-test-engine" {
		os.Exit(testEngine(os.Args[2]))
	}
}

func testEngine(mode string) int {
	if spec, ok := strings.CutPrefix(mode, "serve:"); ok {
		if err := Serve(os.Stdin, os.Stdout, spec, 0); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	if mode == "sleep" {
		time.Sleep(time.Hour)
		return 0
	}
	in := bufio.NewScanner(os.Stdin)
	first := true
	for in.Scan() {
		line := in.Text()
		if first {
			first = false
			if mode == "version2" {
				fmt.Println("error protocol version \"1\" not supported (this engine speaks urim 2)")
			} else {
				fmt.Println("ok urim 1 test")
			}
			continue
		}
		switch mode {
		case "die":
			fmt.Fprintln(os.Stderr, "boom: out of cheese")
			return 3
		case "garbage":
			fmt.Println("hello there")
		case "hang":
			if strings.HasPrefix(line, "go") {
				time.Sleep(time.Hour)
			}
			fmt.Println("ok")
		case "spawn":
			// A shell script running a program that hangs: the child
			// inherits the engine's output and holds it open.
			if strings.HasPrefix(line, "go") {
				child := exec.Command(os.Args[0], "urim-test-engine", "sleep")
				child.Stdout, child.Stderr = os.Stdout, os.Stderr
				_ = child.Run()
			}
			fmt.Println("ok")
		case "longline":
			if strings.HasPrefix(line, "go") {
				fmt.Println("bestmove 0 pv=" + strings.Repeat("0.", 1<<20)) // 2 MB
			} else {
				fmt.Println("ok")
			}
		case "refuse":
			if strings.HasPrefix(line, "go") {
				fmt.Println("error go: I would rather not")
			} else {
				fmt.Println("ok")
			}
		}
	}
	return 0
}

// engineCmd is the command line of the test engine in mode.
func engineCmd(mode string) string { return os.Args[0] + " urim-test-engine " + mode }

func newExternal(t *testing.T, mode string, timeout time.Duration) (*External, error) {
	t.Helper()
	return NewExternal(engineCmd(mode), "", timeout, 7)
}

// playOut plays a whole game of g with a in seat 0 and a random agent in
// seat 1 and returns the moves.
func playOut(t *testing.T, g *env.Game, a agents.Agent, seed uint64) []int {
	t.Helper()
	opp := NewRandom(seed)
	s := g.Start()
	var moves []int
	for !s.Terminal() {
		p := agents.Agent(opp)
		if s.ToMove() == 0 {
			p = a
		}
		m, err := p.Act(&s)
		if err != nil {
			t.Fatal(err)
		}
		s.Play(m)
		moves = append(moves, m)
	}
	return moves
}

func TestExternalPlaysAndReusesTheProcess(t *testing.T) {
	defer CloseExternalEngines()
	a, err := newExternal(t, "serve:random", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	pid := a.proc.cmd.Process.Pid
	first := playOut(t, env.MustGame(env.Urim), a, 1)
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	// The same command line gets the same process back from the pool, and
	// the same seed gives the same game.
	b, err := newExternal(t, "serve:random", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if b.proc.cmd.Process.Pid != pid {
		t.Errorf("a second agent started a new process")
	}
	again := playOut(t, env.MustGame(env.Urim), b, 1)
	if fmt.Sprint(first) != fmt.Sprint(again) {
		t.Errorf("the same seed gave different games:\n%v\n%v", first, again)
	}
	// A reset starts a new game with another seed; other rules are sent.
	b.Reset()
	other := playOut(t, env.MustGame(env.Urim), b, 1)
	if fmt.Sprint(other) == fmt.Sprint(first) {
		t.Errorf("after Reset the engine replayed the same game")
	}
	playOut(t, env.MustGame(env.Oware), b, 2)
	if b.proc.rules != "oware" {
		t.Errorf("rules line %q after an oware game", b.proc.rules)
	}
	b.Close()
	if err := CloseExternalEngines(); err != nil {
		t.Fatal(err)
	}
	enginePool.Lock()
	n := len(enginePool.idle[engineCmd("serve:random")])
	enginePool.Unlock()
	if n != 0 {
		t.Errorf("%d engines idle after CloseExternalEngines", n)
	}
}

func TestExternalFromSpec(t *testing.T) {
	defer CloseExternalEngines()
	a, err := agents.New("external:cmd='"+engineCmd("serve:greedy")+"',timeout=10s", 3)
	if err != nil {
		t.Fatal(err)
	}
	playOut(t, env.MustGame(env.Urim), a, 4)
	agents.Close(a)
	for spec, want := range map[string]string{
		"external":                      "cmd",
		"external:cmd=x,depth=3":        "unknown parameter depth",
		"external:cmd=/no/such/program": "cannot start",
		"external:cmd='" + engineCmd("serve:random") + "',go='nosuch=1'": "", // fails at go, not here
	} {
		a, err := agents.New(spec, 1)
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", spec, err)
				continue
			}
			s := env.MustGame(env.Urim).Start()
			if _, err := a.Act(&s); err == nil || !strings.Contains(err.Error(), "unknown parameter nosuch") {
				t.Errorf("%s: Act error %v", spec, err)
			}
			agents.Close(a)
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to mention %q", spec, err, want)
		}
	}
}

func TestExternalFailures(t *testing.T) {
	defer CloseExternalEngines()
	s := env.MustGame(env.Urim).Start()
	if _, err := newExternal(t, "version2", time.Second); err == nil || !strings.Contains(err.Error(), "urim 2") {
		t.Errorf("version mismatch: %v", err)
	}
	for mode, want := range map[string]string{
		"die":     "out of cheese",
		"garbage": `replied "hello there"`,
		"hang":    "no reply",
		"refuse":  "I would rather not",
	} {
		// Only "hang" waits for the timeout; the others get a long one, so
		// a slow start of the engine process under load is not a failure.
		timeout := 10 * time.Second
		if mode == "hang" {
			timeout = time.Second
		}
		a, err := newExternal(t, mode, timeout)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		_, err = a.Act(&s)
		if !errors.Is(err, ErrExternal) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want ErrExternal mentioning %q", mode, err, want)
		}
		a.Close()
		if _, err := a.Act(&s); err == nil {
			t.Errorf("%s: Act after Close succeeded", mode)
		}
	}
}

// within runs f and fails the test if it does not return within d: the
// failures below used to hang forever.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

// TestExternalChildHoldsOutput: an engine whose child hangs and keeps the
// output pipe open is killed at its timeout with the child, and neither the
// move nor Close waits for the pipe.
func TestExternalChildHoldsOutput(t *testing.T) {
	defer CloseExternalEngines()
	a, err := newExternal(t, "spawn", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	s := env.MustGame(env.Urim).Start()
	within(t, 20*time.Second, "Act", func() { // 1s timeout + 2 graces, with room for a loaded machine
		_, err = a.Act(&s)
	})
	if !errors.Is(err, ErrExternal) || !strings.Contains(err.Error(), "no reply") {
		t.Errorf("error %v, want ErrExternal saying no reply", err)
	}
	within(t, 10*time.Second, "Close", func() { a.Close() })
}

// TestExternalOverLongReply: a reply line over the protocol's limit is a
// clear error, not a wait for an engine that waits for input.
func TestExternalOverLongReply(t *testing.T) {
	defer CloseExternalEngines()
	a, err := newExternal(t, "longline", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	s := env.MustGame(env.Urim).Start()
	within(t, 30*time.Second, "Act", func() { _, err = a.Act(&s) })
	if !errors.Is(err, ErrExternal) || !strings.Contains(err.Error(), "longer than 1048576 bytes") {
		t.Errorf("error %v, want ErrExternal naming the line limit", err)
	}
	within(t, 10*time.Second, "Close", func() { a.Close() })
}

// TestExternalInterrupt: InterruptExternalEngines (Ctrl-C in a command)
// ends a wait that has no timeout.
func TestExternalInterrupt(t *testing.T) {
	defer CloseExternalEngines()
	a, err := newExternal(t, "hang", 0)
	if err != nil {
		t.Fatal(err)
	}
	s := env.MustGame(env.Urim).Start()
	go func() {
		time.Sleep(200 * time.Millisecond)
		InterruptExternalEngines()
	}()
	within(t, 20*time.Second, "Act", func() { _, err = a.Act(&s) })
	if !errors.Is(err, ErrExternal) || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("error %v, want ErrExternal saying interrupted", err)
	}
	within(t, 10*time.Second, "Close", func() { a.Close() })
}
