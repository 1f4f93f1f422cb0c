package agents

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/urim-rl/urim/env"
)

// Builder makes an agent from its parameters. It reads every parameter it
// accepts through p (getters with defaults and ranges) and must not keep p.
// seed seeds all of the agent's randomness. [New] checks the parameters once
// the builder returns; a builder that allocates much (a table, a network) or
// starts a process calls p.Done first and returns its error, so a bad spec
// costs nothing and [Validate] can check a spec without building it.
type Builder func(p *Params, seed uint64) (Agent, error)

type entry struct {
	name, help string
	build      Builder
}

var (
	mu       sync.RWMutex
	registry = map[string]entry{}
)

// Register adds an agent kind under name, with a one-line help that lists its
// parameters and their defaults. It panics if name is taken (a program bug).
func Register(name, help string, build Builder) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[name]; dup {
		panic("agents: Register called twice for " + name)
	}
	registry[name] = entry{name: name, help: help, build: build}
}

// Names lists the registered agent kinds in alphabetical order.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Help returns one line per registered kind: its name and parameters.
func Help() string {
	var b strings.Builder
	for _, n := range Names() {
		mu.RLock()
		e := registry[n]
		mu.RUnlock()
		fmt.Fprintf(&b, "  %-10s %s\n", n, e.help)
	}
	return b.String()
}

// New builds the agent described by spec, seeded with seed. An unknown agent
// or parameter, or a bad value, is an error that says what is accepted.
func New(spec string, seed uint64) (Agent, error) {
	sp, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	mu.RLock()
	e, ok := registry[sp.Name]
	mu.RUnlock()
	if !ok {
		return nil, fmt.Errorf("%w %q: unknown agent %q (known: %s)", ErrSpec, spec, sp.Name, strings.Join(Names(), ", "))
	}
	p := NewParams(sp)
	a, err := e.build(p, seed)
	if err != nil {
		return nil, err
	}
	if err := p.Done(); err != nil {
		_ = Close(a)
		return nil, err
	}
	return a, nil
}

// Validate checks spec as [New] would, without building the agent: the
// builder runs with parameters whose Done stops it once they are checked,
// so no table is allocated and no external engine is started. (A builder
// that does not call Done builds its cheap agent, which is dropped.)
func Validate(spec string) error { return validate(spec, nil) }

// ValidateFor is [Validate] for an agent that will play the games of g: a
// network checkpoint (ckpt=) is also read and must have been made for g's
// rules, so that a tournament refuses it before its first game rather than
// failing at the first move.
func ValidateFor(spec string, g *env.Game) error { return validate(spec, g) }

func validate(spec string, g *env.Game) error {
	sp, err := ParseSpec(spec)
	if err != nil {
		return err
	}
	mu.RLock()
	e, ok := registry[sp.Name]
	mu.RUnlock()
	if !ok {
		return fmt.Errorf("%w %q: unknown agent %q (known: %s)", ErrSpec, spec, sp.Name, strings.Join(Names(), ", "))
	}
	p := NewParams(sp)
	p.checkOnly = true
	p.game = g
	a, err := e.build(p, 0)
	if errors.Is(err, errChecked) {
		return nil
	}
	if err != nil {
		return err
	}
	_ = Close(a)
	if err := p.Done(); !errors.Is(err, errChecked) {
		return err
	}
	return nil
}

// errChecked stops a builder run by Validate once its parameters are good.
var errChecked = errors.New("agents: spec checked")
