package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/progress"
)

// Every long command ends a Ctrl-C the same way: it stops at the next safe
// point, says how far it got, what is saved and how to resume (or that
// nothing is, and that running it again starts over), and exits with
// status 130, as a shell's interrupted command does. The cause ("context
// canceled") is not printed: the user knows they pressed Ctrl-C.

// interruptible returns a context cancelled by Ctrl-C, so a long run stops
// between games and still saves what it can.
// Ctrl-C also kills the external engines (which run in process groups of
// their own, out of the terminal's reach), so no game waits for a reply.
func interruptible() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	var done atomic.Bool
	go func() {
		<-ctx.Done()
		if !done.Load() {
			classic.InterruptExternalEngines()
		}
	}()
	return ctx, func() {
		done.Store(true)
		stop()
	}
}

// stoppedBy reports whether err ended a command because Ctrl-C cancelled
// ctx (whatever err wraps: the cancellation, or an engine killed by it).
func stoppedBy(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() != nil
}

// interruption is what a command stopped by Ctrl-C reports.
type interruption struct {
	cmd    string // "urim train"
	where  string // how far it got: "during iteration 3", "after 12 of 100 positions"
	saved  string // what is kept: "iterations 1 to 2 are saved in runs/x", "nothing was saved"
	resume string // "continue with: urim train --resume runs/x", "run the command again to start over"
}

// exit prints the interruption on standard error and returns status 130.
func (i interruption) exit(std *stdio) error {
	fmt.Fprintf(std.err, "\n%s: interrupted", i.cmd)
	if i.where != "" {
		fmt.Fprintf(std.err, " %s", i.where)
	}
	fmt.Fprintf(std.err, "; %s.\n", i.saved)
	if i.resume != "" {
		// No full stop: the line may end with a command to paste.
		fmt.Fprintf(std.err, "%s: %s\n", i.cmd, i.resume)
	}
	return exitCode(130)
}

// interrupted reports a tournament (urim eval, urim match) stopped by
// Ctrl-C: its finished games, whether a store keeps them, how to resume.
func interrupted(std *stdio, cmd string, res *evaluate.Result, store string) error {
	played, reused := 0, 0
	if res != nil {
		played, reused = res.Played, res.Reused
	}
	i := interruption{cmd: cmd, where: "after " + progress.Count(played, "finished games")}
	if reused > 0 {
		i.where += fmt.Sprintf(" (and %d reused from the store)", reused)
	}
	switch {
	case store != "":
		i.saved = "they are saved in " + store
		i.resume = "run the same command again to resume (stored games are not replayed)"
	case cmd == "urim match":
		i.saved = "nothing was saved"
		i.resume = "it keeps no games; 'urim eval --agents A,B --store FILE' plays the same games and keeps them, so that running it again resumes"
	default:
		i.saved = "nothing was saved"
		i.resume = "give --store FILE to keep finished games, so that running the command again resumes"
	}
	return i.exit(std)
}
