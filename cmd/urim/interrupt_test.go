//go:build unix

package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
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
	defer agents.CloseExternalEngines()
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
