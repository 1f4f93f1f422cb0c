package agents

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/urim-rl/urim/env"
)

// ErrSpec is wrapped by every error about an agent spec string.
var ErrSpec = errors.New("agents: bad spec")

// Spec is a parsed agent spec string: "name" or "name:key=value,key=value".
type Spec struct {
	Name   string
	Params map[string]string
	text   string
}

// String returns the spec as it was written.
func (s Spec) String() string { return s.text }

// Canonical returns the spec in one form: the name, then the parameters
// sorted by key ("mcts:c=1.4,sims=200"), values holding a comma quoted, so
// that two ways of writing the same agent compare equal (the evaluator keys
// seeds and stored games by it; the engine server its agents).
func (s Spec) Canonical() string {
	if len(s.Params) == 0 {
		return s.Name
	}
	keys := make([]string, 0, len(s.Params))
	for k := range s.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := s.Params[k]
		if strings.Contains(v, ",") {
			v = "'" + v + "'"
		}
		parts[i] = k + "=" + v
	}
	return s.Name + ":" + strings.Join(parts, ",")
}

// ParseSpec splits a spec string into its name and parameters. It checks the
// syntax only; [New] checks the name and the parameters against the registry.
func ParseSpec(text string) (Spec, error) {
	text = strings.TrimSpace(text)
	name, rest, hasParams := strings.Cut(text, ":")
	sp := Spec{Name: strings.TrimSpace(name), Params: map[string]string{}, text: text}
	if sp.Name == "" {
		return sp, fmt.Errorf("%w %q: no agent name (known: %s)", ErrSpec, text, strings.Join(Names(), ", "))
	}
	if !hasParams {
		return sp, nil
	}
	for _, kv := range splitParams(rest) {
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return sp, fmt.Errorf("%w %q: parameter %q is not key=value", ErrSpec, text, kv)
		}
		if _, dup := sp.Params[k]; dup {
			return sp, fmt.Errorf("%w %q: parameter %q given twice", ErrSpec, text, k)
		}
		sp.Params[k] = v
	}
	return sp, nil
}

// splitParams splits on commas, except inside a value that is quoted with
// single quotes (so external:cmd='prog --a,b' works).
func splitParams(s string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
		case r == ',' && !quoted:
			out = append(out, cur.String())
			cur.Reset()
			continue
		default:
			cur.WriteRune(r)
			continue
		}
	}
	return append(out, cur.String())
}

// Params gives typed access to a spec's parameters. Each getter records the
// key as known; [Params.Done] then reports any parameter that no getter asked
// for, so a typo is an error rather than silently ignored.
type Params struct {
	spec  Spec
	known []string
	used  map[string]bool
	err   error
	// checkOnly makes a successful Done return errChecked ([Validate]).
	checkOnly bool
	// game, when set ([ValidateFor]), is the game the agent will play: a
	// checkpoint for other rules is then a bad parameter.
	game *env.Game
	// inspect, when set ([Inspect]), collects what the parameters declare
	// and makes Fail a no-op: Inspect reports what a spec names, Validate
	// whether its values are good.
	inspect *Inspection
	nested  map[string]string // the Spec parameters read, for Inspect
}

// NewParams returns the parameters of sp for a builder run outside [New]
// (a caller that reads an agent's spec for another use, such as the
// lock-step search of an az spec); the caller calls Done as New would.
func NewParams(sp Spec) *Params { return &Params{spec: sp, used: map[string]bool{}} }

// Game returns the game the agent will play, when [ValidateFor] checks a
// spec for one; nil otherwise.
func (p *Params) Game() *env.Game { return p.game }

func (p *Params) lookup(key string) (string, bool) {
	p.known = append(p.known, key)
	v, ok := p.spec.Params[key]
	if ok {
		p.used[key] = true
	}
	return v, ok
}

// Fail records that parameter key has the bad value v and what is wanted
// instead ("an integer from 1 to 9"); [Params.Done] returns the first such
// error. Builders call it for checks the getters cannot make.
func (p *Params) Fail(key, v, want string) {
	if p.err == nil && p.inspect == nil {
		p.err = fmt.Errorf("%w %q: %s=%q: want %s", ErrSpec, p.spec.text, key, v, want)
	}
}

// Int returns the integer parameter key, def when absent; it must lie in
// [lo, hi].
func (p *Params) Int(key string, def, lo, hi int) int {
	v, ok := p.lookup(key)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		p.Fail(key, v, fmt.Sprintf("an integer from %d to %d", lo, hi))
		return def
	}
	return n
}

// Float returns the float parameter key, def when absent; it must be a
// finite number in [lo, hi] (NaN and ±Inf are refused).
func (p *Params) Float(key string, def, lo, hi float64) float64 {
	v, ok := p.lookup(key)
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	// !(f >= lo && f <= hi) also refuses NaN, for which every comparison
	// is false; ±Inf lies outside every finite range.
	if err != nil || !(f >= lo && f <= hi) || math.IsInf(f, 0) {
		p.Fail(key, v, fmt.Sprintf("a number from %g to %g", lo, hi))
		return def
	}
	return f
}

// Duration returns the duration parameter key ("500ms", "2s"), def when
// absent.
func (p *Params) Duration(key string, def time.Duration) time.Duration {
	v, ok := p.lookup(key)
	if !ok {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		p.Fail(key, v, "a duration such as 500ms or 2s")
		return def
	}
	return d
}

// String returns the string parameter key, def when absent.
func (p *Params) String(key, def string) string {
	v, ok := p.lookup(key)
	if !ok {
		return def
	}
	return v
}

// Bool returns the boolean parameter key (true/false/1/0), def when absent.
func (p *Params) Bool(key string, def bool) bool {
	v, ok := p.lookup(key)
	if !ok {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		p.Fail(key, v, "true or false")
		return def
	}
	return b
}

// Done returns the first bad value, or an error naming a parameter that the
// agent does not take, with the ones it does.
func (p *Params) Done() error {
	if p.err != nil {
		return p.err
	}
	var unknown []string
	for k := range p.spec.Params {
		if !p.used[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		accepted := "none"
		if len(p.known) > 0 {
			known := append([]string(nil), p.known...)
			sort.Strings(known)
			accepted = strings.Join(known, ", ")
		}
		return fmt.Errorf("%w %q: unknown parameter %s for agent %q (accepted: %s)",
			ErrSpec, p.spec.text, strings.Join(unknown, ", "), p.spec.Name, accepted)
	}
	if p.checkOnly {
		return errChecked
	}
	return nil
}
