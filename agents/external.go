package agents

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urim-rl/urim/env"
)

func init() {
	Register("external",
		"an engine in another process speaking docs/protocol.md: cmd='program args' (required, split on spaces, no shell), "+
			"go='options for each go command' (e.g. go='sims=400'), timeout=60s (per reply, 0: none)",
		func(p *Params, seed uint64) (Agent, error) {
			cmdline := strings.TrimSpace(p.String("cmd", ""))
			goArgs := strings.TrimSpace(p.String("go", ""))
			timeout := p.Duration("timeout", time.Minute)
			if cmdline == "" {
				p.fail("cmd", "", "the engine's command line, such as cmd='urim engine mcts:sims=400'")
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

// engineProc is one running engine.
type engineProc struct {
	cmdline string
	cmd     *exec.Cmd
	in      io.WriteCloser
	lines   chan string // reply lines, closed when the engine's output ends
	stderr  *tailBuffer
	rules   string // the rules line last sent ("" before any)
	err     error  // set once the engine failed; it is not reused
	done    chan struct{}
	waitErr error
	// idleTimer stops the engine after it sat in the pool too long.
	idleTimer *time.Timer
	stopOnce  sync.Once
}

// startEngine runs cmdline and checks the protocol version.
func startEngine(cmdline string, timeout time.Duration) (*engineProc, error) {
	args := strings.Fields(cmdline)
	if len(args) == 0 {
		return nil, fmt.Errorf("%w: empty command", ErrExternal)
	}
	cmd := exec.Command(args[0], args[1:]...)
	p := &engineProc{cmdline: cmdline, cmd: cmd, lines: make(chan string, 16), stderr: &tailBuffer{max: 2048}, done: make(chan struct{})}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("%w %q: %v", ErrExternal, cmdline, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%w %q: %v", ErrExternal, cmdline, err)
	}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w %q: cannot start: %v", ErrExternal, cmdline, err)
	}
	p.in = in
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 0, 4096), 1<<20)
		for sc.Scan() {
			p.lines <- strings.TrimSpace(sc.Text())
		}
		close(p.lines)
		p.waitErr = cmd.Wait()
		close(p.done)
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
// replies, a dead engine and a timeout into errors.
func (p *engineProc) call(line string, timeout time.Duration) (string, error) {
	if p.err != nil {
		return "", p.err
	}
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		return "", p.fail(fmt.Errorf("cannot send %q: %v", line, err))
	}
	var expire <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expire = t.C
	}
	for {
		select {
		case reply, ok := <-p.lines:
			if !ok {
				<-p.done
				return "", p.fail(fmt.Errorf("exited (%v) after %q", p.waitErr, line))
			}
			if reply == "" || strings.HasPrefix(reply, "#") {
				continue
			}
			if msg, isErr := strings.CutPrefix(reply, "error"); isErr {
				// The engine is still usable: only this command failed.
				return "", fmt.Errorf("%w %q: %q: %s", ErrExternal, p.cmdline, line, strings.TrimSpace(msg))
			}
			return reply, nil
		case <-expire:
			err := p.fail(fmt.Errorf("no reply to %q within %v", line, timeout))
			p.stop()
			return "", err
		}
	}
}

// fail marks the engine broken and returns err with the command line and
// the end of the engine's standard error.
func (p *engineProc) fail(err error) error {
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

// stop asks the engine to quit, and kills it if it has not exited within a
// second.
func (p *engineProc) stop() error {
	p.stopOnce.Do(func() {
		_, _ = io.WriteString(p.in, "quit\n")
		_ = p.in.Close()
		// Drain the output (the reader must reach its end before Wait)
		// until the engine exits.
		kill := time.After(time.Second)
		for {
			select {
			case _, ok := <-p.lines:
				if !ok {
					<-p.done
					return
				}
			case <-kill:
				_ = p.cmd.Process.Kill()
				kill = nil
			}
		}
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
