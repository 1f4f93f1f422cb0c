package web

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urim-rl/urim/agents"
)

// errPolicy is wrapped by every refusal of an agent spec by the server's
// policy (as opposed to a spec the registry itself refuses).
var errPolicy = errors.New("refused by the server")

// policy is what the page may ask of agents.
type policy struct {
	allowExternal bool
	roots         []root // files agents may read
	maxSims       int
	maxDepth      int
	maxTime       time.Duration
	maxThreads    int
}

// check returns spec rewritten for use (file parameters resolved inside the
// served paths) or the reason it is refused. The registry then checks the
// rest with agents.Validate.
func (p *policy) check(spec string) (string, error) {
	out, err := p.rewrite(spec, 0)
	if err != nil {
		return "", err
	}
	if err := agents.Validate(out); err != nil {
		return "", err
	}
	return out, nil
}

// rewrite returns spec with its file parameters resolved, or why it is
// refused. What the spec names beyond the game (files, programs, nested
// agents, budgets) is what its agent's builder declares (agents.Inspect),
// so an agent added later is held to the same rules.
func (p *policy) rewrite(spec string, depth int) (string, error) {
	in, err := agents.Inspect(spec)
	if err != nil {
		return "", err
	}
	return p.rewriteInspected(spec, in, depth)
}

func (p *policy) rewriteInspected(spec string, in *agents.Inspection, depth int) (string, error) {
	if depth > 3 {
		return "", fmt.Errorf("%w: %q nests specs too deep", errPolicy, spec)
	}
	if len(in.Programs) > 0 && !p.allowExternal {
		return "", fmt.Errorf("%w: %q starts an external engine (start urim serve with --allow-external to allow it)", errPolicy, spec)
	}
	for _, k := range slices.Sorted(maps.Keys(in.Files)) {
		if _, given := in.Given[k]; !given {
			return "", fmt.Errorf("%w: %q reads %s=%s by default, a file the page did not name", errPolicy, spec, k, in.Files[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(in.Specs)) {
		if _, given := in.Given[k]; !given { // a default agent: held to the rules too
			if _, err := p.rewriteInspected(spec, in.Specs[k], depth+1); err != nil {
				return "", err
			}
		}
	}
	keys := slices.Sorted(maps.Keys(in.Given))
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := in.Given[k]
		_, isFile := in.Files[k]
		inner, isSpec := in.Specs[k]
		_, isBudget := in.Budgets[k]
		switch {
		case isFile:
			real, err := p.file(v)
			if err != nil {
				return "", fmt.Errorf("%s=%s: %w", k, v, err)
			}
			v = real
		case isSpec:
			var err error
			if v, err = p.rewriteInspected(v, inner, depth+1); err != nil {
				return "", err
			}
		case isBudget:
			if err := p.budget(k, v); err != nil {
				return "", fmt.Errorf("%w: %q: %v", errPolicy, spec, err)
			}
		}
		if strings.ContainsAny(v, "'") {
			return "", fmt.Errorf("%w: %q: quotes inside a value", errPolicy, spec)
		}
		if strings.ContainsAny(v, ",:=") {
			v = "'" + v + "'"
		}
		parts = append(parts, k+"="+v)
	}
	if len(parts) == 0 {
		return in.Name, nil
	}
	return in.Name + ":" + strings.Join(parts, ","), nil
}

// file resolves a file parameter: a served name as the page shows it
// ("models0/urim-az.ckpt", "runs0/x/checkpoints/best.ckpt") or a path on
// this machine inside the served paths.
func (p *policy) file(v string) (string, error) {
	label, _, _ := strings.Cut(v, "/")
	for i := range p.roots {
		if p.roots[i].label == label {
			l, err := resolve(p.roots, v)
			if err != nil {
				return "", err
			}
			return confine(p.roots, l.osPath())
		}
	}
	return confine(p.roots, v)
}

// budget checks one budget parameter against the caps; values the registry
// will refuse anyway (not numbers) pass here, a budget without a cap does
// not.
func (p *policy) budget(k, v string) error {
	num := func(limit int, what string) error {
		n, err := strconv.Atoi(v)
		if err == nil && n > limit {
			return fmt.Errorf("%s=%d is over the server's cap of %d %s (urim serve --max-%s)", k, n, limit, what, k)
		}
		return nil
	}
	switch k {
	case "sims":
		if v == "0" {
			return nil // no count: the time cap bounds it (time is required then)
		}
		return num(p.maxSims, "simulations")
	case "depth":
		return num(p.maxDepth, "plies")
	case "threads":
		if n, err := strconv.Atoi(v); err == nil && n > p.maxThreads {
			return fmt.Errorf("threads=%d is over the server's cap of %d", n, p.maxThreads)
		}
	case "rollouts":
		if n, err := strconv.Atoi(v); err == nil && n > 64 {
			return fmt.Errorf("rollouts=%d is over the server's cap of 64", n)
		}
	case "tt":
		if n, err := strconv.Atoi(v); err == nil && n > 24 {
			return fmt.Errorf("tt=%d is over the server's cap of 24", n)
		}
	case "time":
		d, err := time.ParseDuration(v)
		if err == nil && d > p.maxTime {
			return fmt.Errorf("time=%s is over the server's cap of %s (urim serve --max-time)", d, p.maxTime)
		}
	default:
		return fmt.Errorf("%s is a budget this server has no cap for", k)
	}
	return nil
}
