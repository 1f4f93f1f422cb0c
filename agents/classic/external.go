package classic

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

func init() {
	agents.Register("external",
		"an engine in another process speaking docs/protocol.md: cmd='program args' (required, split on spaces, no shell), "+
			"go='options for each go command' (e.g. go='sims=400'), timeout=60s (per reply, 0: none)",
		func(p *agents.Params, seed uint64) (agents.Agent, error) {
			cmdline := strings.TrimSpace(p.Program("cmd", ""))
			goArgs := strings.TrimSpace(p.String("go", ""))
			timeout := p.Duration("timeout", time.Minute)
			if cmdline == "" {
				p.Fail("cmd", "", "the engine's command line, such as cmd='urim engine mcts:sims=400'")
				return nil, p.Done()
			}
			if err := p.Done(); err != nil {
				return nil, err
			}
			return NewExternal(cmdline, goArgs, timeout, seed)
		})
}

// ErrExternal is wrapped by every error of an external engine: it could not
// start, died, timed out, or replied with an error or nonsense.
var ErrExternal = errors.New("agents: external engine")

// ExternalIdleTimeout is how long an engine process waits in the pool for the
// next game before it is told to quit.
var ExternalIdleTimeout = 30 * time.Second

// External is an agent played by another program through the line protocol
// of docs/protocol.md. Engine processes are kept in a pool keyed by command
// line: an External takes one when it is built and gives it back on Close,
// so a tournament starts each engine once and reuses it across games. Every
// game begins with "newgame seed=N", so a seeded engine plays reproducibly.
type External struct {
	cmdline string
	goLine  string
	timeout time.Duration
	seed    uint64
	proc    *engineProc
	// fresh is set until the first move of a game has been asked for.
	fresh bool
}

// NewExternal starts (or takes from the pool) an engine run by cmdline,
// checks the protocol version, and returns an agent that plays through it.
// goArgs is appended to every go command ("sims=400"); timeout bounds each
// reply (0: no bound).
func NewExternal(cmdline, goArgs string, timeout time.Duration, seed uint64) (*External, error) {
	p, err := takeEngine(cmdline, timeout)
	if err != nil {
		return nil, err
	}
	goLine := "go"
	if goArgs != "" {
		goLine += " " + goArgs
	}
	return &External{cmdline: cmdline, goLine: goLine, timeout: timeout, seed: seed, proc: p, fresh: true}, nil
}

// Reset starts a new game with the next seed.
func (e *External) Reset() {
	if !e.fresh {
		e.seed = e.seed*0x9E3779B97F4A7C15 + 1
	}
	e.fresh = true
}

// Act sends the rules (when they changed), "newgame" at the start of a game,
// the position, and "go", and returns the engine's bestmove.
func (e *External) Act(s *env.State) (int, error) {
	if e.proc == nil {
		return 0, fmt.Errorf("%w %q: Act after Close", ErrExternal, e.cmdline)
	}
	p := e.proc
	if rules := env.FormatRulesLine(s.Game().Rules()); rules != p.rules {
		if _, err := p.call("rules "+rules, e.timeout); err != nil {
			return 0, err
		}
		p.rules = rules
		e.fresh = true
	}
	if e.fresh {
		if _, err := p.call("newgame seed="+strconv.FormatUint(e.seed, 10), e.timeout); err != nil {
			return 0, err
		}
		e.fresh = false
	}
	if _, err := p.call("position "+s.String(), e.timeout); err != nil {
		return 0, err
	}
	reply, err := p.call(e.goLine, e.timeout)
	if err != nil {
		return 0, err
	}
	f := strings.Fields(reply)
	if len(f) < 2 || f[0] != "bestmove" {
		return 0, p.fail(fmt.Errorf("replied %q to %q, want \"bestmove ACTION\"", reply, e.goLine))
	}
	a, err := strconv.Atoi(f[1])
	if err != nil {
		return 0, p.fail(fmt.Errorf("bestmove %q is not an action", f[1]))
	}
	if err := s.Check(a); err != nil {
		return 0, fmt.Errorf("%w %q: bestmove %d: %w", ErrExternal, e.cmdline, a, err)
	}
	return a, nil
}

// Close gives the engine back to the pool (or stops it if it failed).
func (e *External) Close() error {
	p := e.proc
	e.proc = nil
	if p == nil {
		return nil
	}
	if p.err != nil {
		return p.stop()
	}
	releaseEngine(p)
	return nil
}

// CloseExternalEngines stops every idle engine process in the pool. Commands
// call it before exiting; engines still in use are stopped when their agent
// is closed.
func CloseExternalEngines() error {
	enginePool.Lock()
	var all []*engineProc
	for k, list := range enginePool.idle {
		all = append(all, list...)
		delete(enginePool.idle, k)
	}
	enginePool.Unlock()
	var first error
	for _, p := range all {
		p.idleTimer.Stop()
		if err := p.stop(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

var enginePool = struct {
	sync.Mutex
	idle map[string][]*engineProc
}{idle: map[string][]*engineProc{}}

func takeEngine(cmdline string, timeout time.Duration) (*engineProc, error) {
	enginePool.Lock()
	list := enginePool.idle[cmdline]
	for len(list) > 0 {
		p := list[len(list)-1]
		list = list[:len(list)-1]
		enginePool.idle[cmdline] = list
		if p.idleTimer.Stop() {
			enginePool.Unlock()
			return p, nil
		}
		// Its timer already fired and is stopping it: skip it.
	}
	enginePool.Unlock()
	return startEngine(cmdline, timeout)
}

func releaseEngine(p *engineProc) {
	enginePool.Lock()
	defer enginePool.Unlock()
	enginePool.idle[p.cmdline] = append(enginePool.idle[p.cmdline], p)
	p.idleTimer = time.AfterFunc(ExternalIdleTimeout, func() {
		enginePool.Lock()
		list := enginePool.idle[p.cmdline]
		for i, q := range list {
			if q == p {
				enginePool.idle[p.cmdline] = append(list[:i], list[i+1:]...)
				break
			}
		}
		enginePool.Unlock()
		_ = p.stop()
	})
}

// engineGrace bounds each wait for an engine that was told to quit or was
// killed: to exit, and then to close its output.
const engineGrace = time.Second

// engineProc is one running engine. Its three pipes are plain files read by
// goroutines of its own, so no wait depends on a process closing its end:
// a child of the engine that keeps the output open (a shell script running
// a program) cannot block a call, Close or the end of the command.
type engineProc struct {
	cmdline string
	cmd     *exec.Cmd
	in      *os.File    // the engine's standard input
	out     *os.File    // the read end of its standard output
	errOut  *os.File    // the read end of its standard error
	lines   chan string // reply lines, closed when reading stops
	readErr error       // why reading stopped (nil: end of output); set before lines is closed
	stderr  *tailBuffer
	errDone chan struct{} // closed when its standard error ends
	rules   string        // the rules line last sent ("" before any)
	err     error         // set once the engine failed; it is not reused
	done    chan struct{} // closed when the process has exited
	waitErr error
	// abort is closed when the engine is stopped or interrupted: a call
	// waiting for a reply fails at once.
	abort       chan struct{}
	abortOnce   sync.Once
	interrupted bool // set before abort is closed by an interrupt
	// idleTimer stops the engine after it sat in the pool too long.
	idleTimer *time.Timer
	stopOnce  sync.Once
}

// liveEngines holds every engine process not yet stopped, for
// [InterruptExternalEngines].
var liveEngines = struct {
	sync.Mutex
	m map[*engineProc]bool
}{m: map[*engineProc]bool{}}

// InterruptExternalEngines kills every running engine process and its
// children, in use or idle: calls waiting for a reply fail at once with an
// error saying so. Commands call it on Ctrl-C, since engines run in process
// groups of their own and do not receive the terminal's interrupt.
func InterruptExternalEngines() {
	liveEngines.Lock()
	all := make([]*engineProc, 0, len(liveEngines.m))
	for p := range liveEngines.m {
		all = append(all, p)
	}
	liveEngines.Unlock()
	for _, p := range all {
		p.abortOnce.Do(func() {
			p.interrupted = true
			close(p.abort)
		})
		killProcessGroup(p.cmd.Process)
	}
}

// startEngine runs cmdline and checks the protocol version.
func startEngine(cmdline string, timeout time.Duration) (*engineProc, error) {
	args := strings.Fields(cmdline)
	if len(args) == 0 {
		return nil, fmt.Errorf("%w: empty command", ErrExternal)
	}
	cmd := exec.Command(args[0], args[1:]...)
	setProcessGroup(cmd)
	p := &engineProc{cmdline: cmdline, cmd: cmd, lines: make(chan string, 16), stderr: &tailBuffer{max: 2048},
		errDone: make(chan struct{}), done: make(chan struct{}), abort: make(chan struct{})}
	var theirs []*os.File // the engine's ends, closed here once it started
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			theirs = append(theirs, r, w)
		}
		return r, w, err
	}
	closeAll := func() {
		for _, f := range theirs {
			_ = f.Close()
		}
	}
	inR, inW, err1 := pipe()
	outR, outW, err2 := pipe()
	errR, errW, err3 := pipe()
	if err := errors.Join(err1, err2, err3); err != nil {
		closeAll()
		return nil, fmt.Errorf("%w %q: %v", ErrExternal, cmdline, err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		closeAll()
		return nil, fmt.Errorf("%w %q: cannot start: %v", ErrExternal, cmdline, err)
	}
	_, _, _ = inR.Close(), outW.Close(), errW.Close()
	p.in, p.out, p.errOut = inW, outR, errR
	liveEngines.Lock()
	liveEngines.m[p] = true
	liveEngines.Unlock()
	go func() {
		p.waitErr = cmd.Wait()
		close(p.done)
	}()
	go func() {
		_, _ = io.Copy(p.stderr, errR)
		close(p.errDone)
	}()
	go func() {
		defer close(p.lines)
		lr := newLineReader(outR, MaxLineBytes)
		for {
			line, err := lr.next(false)
			if err != nil {
				if !errors.Is(err, io.EOF) {
					p.readErr = err
				}
				return
			}
			select {
			case p.lines <- strings.TrimSpace(line):
			case <-p.abort:
				return
			}
		}
	}()
	reply, err := p.call("urim "+strconv.Itoa(ProtocolVersion), timeout)
	if err != nil {
		p.stop()
		return nil, err
	}
	if !strings.HasPrefix(reply, "ok urim "+strconv.Itoa(ProtocolVersion)) {
		err := p.fail(fmt.Errorf("replied %q to the handshake \"urim %d\"", reply, ProtocolVersion))
		p.stop()
		return nil, err
	}
	return p, nil
}

// call sends one command and returns the reply line, turning "error ..."
// replies, a dead engine, an over-long line, an interrupt and a timeout into
// errors. A timeout bounds the write too, should the engine stop reading.
func (p *engineProc) call(line string, timeout time.Duration) (string, error) {
	if p.err != nil {
		return "", p.err
	}
	var expire <-chan time.Time
	deadline := time.Time{}
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expire = t.C
		deadline = time.Now().Add(timeout)
	}
	_ = p.in.SetWriteDeadline(deadline)
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		if p.exited(engineGrace) {
			err = p.fail(fmt.Errorf("exited (%v) before %q", p.waitErr, line))
		} else {
			err = p.fail(fmt.Errorf("cannot send %q: %v", line, err))
		}
		p.stop()
		return "", err
	}
	for {
		select {
		case reply, ok := <-p.lines:
			if !ok {
				err := p.fail(p.endError(line))
				p.stop()
				return "", err
			}
			if reply == "" || strings.HasPrefix(reply, "#") {
				continue
			}
			if msg, isErr := strings.CutPrefix(reply, "error"); isErr {
				// The engine is still usable: only this command failed.
				return "", fmt.Errorf("%w %q: %q: %s", ErrExternal, p.cmdline, line, strings.TrimSpace(msg))
			}
			return reply, nil
		case <-p.abort:
			what := "stopped"
			if p.interrupted {
				what = "interrupted"
			}
			return "", p.fail(fmt.Errorf("%s while waiting for a reply to %q", what, line))
		case <-expire:
			err := p.fail(fmt.Errorf("no reply to %q within %v", line, timeout))
			p.stop()
			return "", err
		}
	}
}

// endError says why the engine's output ended after line was sent.
func (p *engineProc) endError(line string) error {
	switch {
	case errors.Is(p.readErr, errLineTooLong):
		return fmt.Errorf("replied to %q with a line longer than %d bytes (the protocol's limit)", line, MaxLineBytes)
	case p.readErr != nil:
		return fmt.Errorf("cannot read its reply to %q: %v", line, p.readErr)
	case p.exited(engineGrace):
		return fmt.Errorf("exited (%v) after %q", p.waitErr, line)
	}
	return fmt.Errorf("closed its output after %q", line)
}

// exited reports whether the process exits within wait.
func (p *engineProc) exited(wait time.Duration) bool {
	select {
	case <-p.done:
		return true
	case <-time.After(wait):
		return false
	}
}

// fail marks the engine broken and returns err with the command line and
// the end of the engine's standard error.
func (p *engineProc) fail(err error) error {
	select {
	case <-p.done:
		// It exited: let its last words reach the tail, within bounds.
		select {
		case <-p.errDone:
		case <-time.After(engineGrace):
		}
	default:
	}
	msg := fmt.Sprintf("%v", err)
	if tail := strings.TrimSpace(p.stderr.String()); tail != "" {
		msg += "; its stderr ends: " + oneLine(tail)
	}
	err = fmt.Errorf("%w %q: %s", ErrExternal, p.cmdline, msg)
	if p.err == nil {
		p.err = err
	}
	return err
}

// stop asks the engine to quit and kills its process group (what is left of
// it) after a grace second; no step waits longer than that.
func (p *engineProc) stop() error {
	p.stopOnce.Do(func() {
		_ = p.in.SetWriteDeadline(time.Now().Add(engineGrace))
		_, _ = io.WriteString(p.in, "quit\n")
		_ = p.in.Close()
		p.exited(engineGrace)
		// Its children, if any, go with it, even after a clean exit.
		killProcessGroup(p.cmd.Process)
		p.exited(engineGrace)
		p.abortOnce.Do(func() { close(p.abort) })
		_ = p.out.Close()
		_ = p.errOut.Close()
		liveEngines.Lock()
		delete(liveEngines.m, p)
		liveEngines.Unlock()
	})
	return nil
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
