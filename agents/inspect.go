package agents

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// The parameters that reach beyond the game (a file read, a program run, an
// agent nested in another, a budget of work) are read through their own
// getters, so that [Inspect] can tell a caller that builds specs for someone
// else (the web board, a cluster worker) what a spec would do, whatever
// agent it names: no such caller keeps a list of parameter names.

// Inspection is what an agent spec names beyond the game, as its agent's
// builder declares it.
type Inspection struct {
	// Name is the agent kind.
	Name string
	// Files maps each parameter naming a file the agent reads (a
	// checkpoint, a table) to its value: given, or the default when that
	// is not empty.
	Files map[string]string
	// Programs maps each parameter naming a program the agent runs (an
	// external engine's command line) to its value, likewise.
	Programs map[string]string
	// Specs maps each parameter holding the spec of another agent (tb's
	// fallback) to that spec's inspection, given or default.
	Specs map[string]*Inspection
	// Budgets maps each budget the agent takes (simulations, depth, time,
	// threads: what a search may spend) to its value and bounds.
	Budgets map[string]Budget
	// Given lists the parameters written in the spec.
	Given map[string]string
}

// Budget is one budget parameter of an [Inspection].
type Budget struct {
	// Value is the budget the agent gets: the given value, else the
	// default (a count, or nanoseconds when Time is set). A value that does
	// not parse is left at the default; Validate refuses it.
	Value int64
	// Given tells a value written in the spec from the default.
	Given bool
	// Time marks a duration (Value in nanoseconds).
	Time bool
}

// RunsPrograms reports whether the inspected agent, or one nested in it, runs a
// program.
func (in *Inspection) RunsPrograms() bool {
	if len(in.Programs) > 0 {
		return true
	}
	for _, s := range in.Specs {
		if s.RunsPrograms() {
			return true
		}
	}
	return false
}

// AllFiles returns the values of every file parameter of the inspected
// agent and of the agents nested in it, in the order of their keys.
func (in *Inspection) AllFiles() []string {
	var out []string
	for _, k := range sortedKeys(in.Files) {
		out = append(out, in.Files[k])
	}
	for _, k := range sortedKeys(in.Specs) {
		out = append(out, in.Specs[k].AllFiles()...)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// maxNesting bounds the agents nested in one spec (a fallback's fallback).
const maxNesting = 4

// Inspect reports what spec names beyond the game: the files its agent
// would read, the programs it would run, the agents nested in it and its
// budgets, as the agent's builder reads them (nothing is built, read or
// started). An unknown agent or parameter is an error, as for [New]; a bad
// value is not (Validate says that).
func Inspect(spec string) (*Inspection, error) { return inspect(spec, 0) }

func inspect(spec string, depth int) (*Inspection, error) {
	if depth > maxNesting {
		return nil, fmt.Errorf("%w %q: agents nested more than %d deep", ErrSpec, spec, maxNesting)
	}
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
	in := &Inspection{Name: sp.Name, Files: map[string]string{}, Programs: map[string]string{},
		Specs: map[string]*Inspection{}, Budgets: map[string]Budget{}, Given: sp.Params}
	p := NewParams(sp)
	p.checkOnly = true
	p.inspect = in
	a, err := e.build(p, 0)
	if err == nil {
		_ = Close(a)
		err = p.Done()
	}
	if !errors.Is(err, errChecked) {
		return nil, err
	}
	// The nested specs, inspected in turn (their values were recorded).
	for k := range in.Specs {
		text := p.nested[k]
		inner, err := inspect(text, depth+1)
		if err != nil {
			return nil, fmt.Errorf("%s=%s: %w", k, text, err)
		}
		in.Specs[k] = inner
	}
	return in, nil
}

// File returns the parameter key naming a file the agent reads, def when
// absent ("" for none).
func (p *Params) File(key, def string) string {
	v := p.String(key, def)
	if p.inspect != nil && v != "" {
		p.inspect.Files[key] = v
	}
	return v
}

// Program returns the parameter key naming a program the agent runs (a
// command line), def when absent.
func (p *Params) Program(key, def string) string {
	v := p.String(key, def)
	if p.inspect != nil && v != "" {
		p.inspect.Programs[key] = v
	}
	return v
}

// Spec returns the parameter key holding the spec of another agent (which
// the builder builds with [New]), def when absent.
func (p *Params) Spec(key, def string) string {
	v := p.String(key, def)
	if p.inspect != nil && v != "" {
		if p.nested == nil {
			p.nested = map[string]string{}
		}
		p.nested[key] = v
		p.inspect.Specs[key] = nil // inspected by Inspect
	}
	return v
}

// Budget returns the integer parameter key that bounds the agent's work
// (simulations, plies, threads), def when absent; it must lie in [lo, max].
func (p *Params) Budget(key string, def, lo, max int) int {
	_, given := p.spec.Params[key]
	n := p.Int(key, def, lo, max)
	if p.inspect != nil {
		p.inspect.Budgets[key] = Budget{Value: int64(n), Given: given}
	}
	return n
}

// TimeBudget returns the duration parameter key that bounds the agent's
// time per move, def when absent (0 usually meaning no limit).
func (p *Params) TimeBudget(key string, def time.Duration) time.Duration {
	_, given := p.spec.Params[key]
	d := p.Duration(key, def)
	if p.inspect != nil {
		p.inspect.Budgets[key] = Budget{Value: int64(d), Given: given, Time: true}
	}
	return d
}
