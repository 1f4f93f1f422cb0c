package env

import (
	"runtime"
	"sync/atomic"
	"time"
)

// The worker pool. A job (step, reset, reset some games, stop) is published
// by bumping a generation counter; each worker runs the job over its fixed
// range of games and counts down a pending counter. The caller's goroutine
// runs the first range itself.
//
// Both sides wait by spinning briefly, then parking on a channel. Parking
// alone is slow for short jobs: Go puts a goroutine woken by a channel send
// on the waker's own processor, so the woken worker would sit there until
// the caller blocks, and the ranges would run one after the other. A short
// spin (with Gosched, so a spinning goroutine gives way) catches the next
// job while the caller is between steps; after vecSpin without work the
// waiter parks, so an idle Vec costs no CPU. Nothing here allocates, but a
// goroutine that parks takes a wait record from the runtime's cache, which
// refills by allocating now and then.
//
// A worker parked for vecIdleExit exits, and the next job starts it again.
// So a Vec dropped without Close leaks nothing for long: once its workers
// have exited nothing refers to it, and the garbage collector takes it.

// vecSpin is how long a waiting worker or caller spins before it parks. It
// covers the caller's usual gap between steps (choosing actions) without
// burning a core while a network evaluates the batch.
const vecSpin = 50 * time.Microsecond

// vecIdleExit is how long a parked worker waits for a job before its
// goroutine exits. Starting it again costs about a microsecond, nothing
// next to the pause that made it exit.
const vecIdleExit = 250 * time.Millisecond

// Worker states (vecWorker.state).
const (
	vecRunning int32 = iota // running a job or spinning for one
	vecParked               // parked on wake, or about to
	vecExited               // the goroutine has returned; the next job restarts it
)

// vecJob is what the workers do when woken.
type vecJob uint8

const (
	vecJobStep      vecJob = iota // step every game with v.actions
	vecJobReset                   // start a new episode in every game
	vecJobResetMask               // start a new episode in the games v.sel marks
	vecJobStop                    // end the worker goroutines
)

// vecWorker owns the games lo … hi-1 of a Vec.
type vecWorker struct {
	lo, hi int
	// seen is the last job generation this worker ran (its own goroutine
	// only).
	seen uint64
	// state is vecParked while a worker is about to park or parked on
	// wake; whoever moves it on (the caller publishing a job: to running,
	// with a wake token; the worker itself: to running on a new job, or to
	// exited after vecIdleExit) owns what follows.
	state atomic.Int32
	wake  chan struct{}
	idle  *time.Timer // fires vecIdleExit after the worker parks
	// eps collects the episodes finished in this worker's range during one
	// job; the caller appends them to the Vec's list in worker order, which
	// is game order whatever the number of workers.
	eps []Episode
	_   [64]byte // keeps workers' hot fields on separate cache lines
}

// vecSync is the shared state of the pool.
type vecSync struct {
	gen atomic.Uint64 // job generation, bumped to publish a job
	// pending counts the workers (besides the caller) still running the job;
	// vecCallerParked is added while the caller is parked on idle. Keeping
	// both in one word makes "the last worker finished and the caller is
	// parked" a single event, seen by exactly one worker.
	pending atomic.Int32
	idle    chan struct{} // wakes the parked caller
}

// vecCallerParked is the bit of vecSync.pending that marks a parked caller.
const vecCallerParked = 1 << 30

// startWorkers splits the games into contiguous ranges of near-equal size
// and starts one goroutine for every range but the first.
func (v *Vec) startWorkers() {
	w := v.opt.Workers
	v.pool.idle = make(chan struct{}, 1)
	v.workers = make([]*vecWorker, w)
	for k := range v.workers {
		lo, hi := k*v.n/w, (k+1)*v.n/w
		wk := &vecWorker{lo: lo, hi: hi, eps: make([]Episode, 0, hi-lo)} // never grows
		v.workers[k] = wk
		if k > 0 {
			wk.wake = make(chan struct{}, 1)
			wk.idle = time.NewTimer(vecIdleExit)
			wk.idle.Stop()
			go v.serve(wk)
		}
	}
}

// dispatch runs job over every range, the first in the caller's goroutine,
// waits for all, and collects the finished episodes.
func (v *Vec) dispatch(job vecJob) {
	if v.closed {
		panic("env: Vec used after Close")
	}
	v.job = job
	v.pool.pending.Store(int32(len(v.workers) - 1))
	v.pool.gen.Add(1) // publishes job, actions and sel to the workers
	for _, w := range v.workers[1:] {
		if w.state.CompareAndSwap(vecParked, vecRunning) {
			w.wake <- struct{}{}
		} else if w.state.CompareAndSwap(vecExited, vecRunning) {
			go v.serve(w)
		}
	}
	v.runJob(v.workers[0])
	v.waitWorkers()
	for _, w := range v.workers {
		if len(w.eps) > 0 {
			v.episodes = append(v.episodes, w.eps...)
			w.eps = w.eps[:0]
		}
	}
}

// waitWorkers returns once every worker has finished the current job.
func (v *Vec) waitWorkers() {
	p := &v.pool
	if vecSpinUntil(func() bool { return p.pending.Load() == 0 }) {
		return
	}
	for {
		n := p.pending.Load()
		if n == 0 {
			return
		}
		if p.pending.CompareAndSwap(n, n|vecCallerParked) {
			break
		}
	}
	// The worker that brings the count to 0 sees the bit and sends a token.
	<-p.idle
}

// serve runs jobs for one worker until the stop job, or until it has been
// idle for vecIdleExit.
func (v *Vec) serve(w *vecWorker) {
	p := &v.pool
	for {
		gen, ok := v.nextJob(w)
		if !ok {
			return // exited while idle; dispatch starts it again
		}
		w.seen = gen
		job := v.job
		v.runJob(w)
		if p.pending.Add(-1) == vecCallerParked {
			p.idle <- struct{}{}
		}
		if job == vecJobStop {
			return
		}
	}
}

// nextJob waits for a job generation newer than the worker's last and
// returns it, or reports false when the worker has waited vecIdleExit and
// marked itself exited.
func (v *Vec) nextJob(w *vecWorker) (uint64, bool) {
	gen := &v.pool.gen
	for {
		if vecSpinUntil(func() bool { return gen.Load() != w.seen }) {
			return gen.Load(), true
		}
		w.state.Store(vecParked)
		if gen.Load() != w.seen && w.state.CompareAndSwap(vecParked, vecRunning) {
			return gen.Load(), true
		}
		// The caller has set running, or will: its token is coming. The
		// token may be stale: a caller delayed between publishing a job and
		// waking this worker finds it parked again after it ran that job. So
		// the loop checks the generation again.
		w.idle.Reset(vecIdleExit)
		select {
		case <-w.wake:
			w.idle.Stop()
		case <-w.idle.C:
			if w.state.CompareAndSwap(vecParked, vecExited) {
				return 0, false
			}
			<-w.wake // the caller won the race: its token is coming
		}
	}
}

// vecSpinUntil polls done for up to vecSpin, yielding the processor now and
// then, and reports whether done became true.
func vecSpinUntil(done func() bool) bool {
	var start time.Time
	for i := 0; ; i++ {
		if done() {
			return true
		}
		if i&15 == 15 {
			if i == 15 {
				start = time.Now()
			} else if time.Since(start) > vecSpin {
				return false
			}
			runtime.Gosched()
		}
	}
}

func (v *Vec) runJob(w *vecWorker) {
	switch v.job {
	case vecJobStep:
		v.stepRange(w)
	case vecJobReset:
		for i := w.lo; i < w.hi; i++ {
			v.restart(i)
		}
	case vecJobResetMask:
		for i := w.lo; i < w.hi; i++ {
			if v.sel[i] {
				v.restart(i)
			}
		}
	}
}
