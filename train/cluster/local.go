package cluster

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/urim-rl/urim/train"
)

// localWorkers are the worker processes a learner with cluster.workers
// starts beside its embedded server; one that exits is started again.
type localWorkers struct {
	mu      sync.Mutex
	cmds    []*exec.Cmd
	stopped bool
	wg      sync.WaitGroup
}

// startLocal starts cfg.Cluster.Workers worker processes for run, with the
// embedded server's worker credentials in their environment.
func startLocal(cfg *train.Config, run string, emb *Embedded, o LearnerOptions) (*localWorkers, error) {
	lw := &localWorkers{cmds: make([]*exec.Cmd, cfg.Cluster.Workers)}
	command := o.WorkerCommand
	if command == nil {
		// The library does not know the program it runs in: the command
		// hands over the worker's command line.
		return nil, fmt.Errorf("cluster: local workers (cluster.workers %d): no worker command given (LearnerOptions.WorkerCommand)", cfg.Cluster.Workers)
	}
	for i := range lw.cmds {
		args := command(i, emb.URL, run)
		lw.wg.Add(1)
		go lw.keep(i, args, append(os.Environ(), emb.Worker.Env()...), o.Log)
	}
	return lw, nil
}

// keep runs local worker i until stop, starting it again (after a pause)
// when it exits.
func (lw *localWorkers) keep(i int, args, env []string, log io.Writer) {
	defer lw.wg.Done()
	for {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = env
		cmd.Stdout, cmd.Stderr = log, log
		lw.mu.Lock()
		if lw.stopped {
			lw.mu.Unlock()
			return
		}
		err := cmd.Start()
		lw.cmds[i] = cmd
		lw.mu.Unlock()
		if err != nil {
			fmt.Fprintf(log, "train: local worker %d: %v\n", i, err)
		} else if err = cmd.Wait(); err != nil {
			lw.mu.Lock()
			stopped := lw.stopped
			lw.mu.Unlock()
			if stopped {
				return
			}
			fmt.Fprintf(log, "train: local worker %d exited: %v; starting it again\n", i, err)
		}
		time.Sleep(time.Second)
	}
}

// stop ends the local workers and waits for them.
func (lw *localWorkers) stop() {
	lw.mu.Lock()
	lw.stopped = true
	for _, c := range lw.cmds {
		if c != nil && c.Process != nil {
			_ = c.Process.Signal(os.Interrupt)
		}
	}
	lw.mu.Unlock()
	done := make(chan struct{})
	go func() { lw.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		lw.mu.Lock()
		for _, c := range lw.cmds {
			if c != nil && c.Process != nil {
				_ = c.Process.Kill()
			}
		}
		lw.mu.Unlock()
		<-done
	}
}
