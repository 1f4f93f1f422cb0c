package web

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/urim-rl/urim/agents"
)

// errPolicy is wrapped by every refusal of an agent spec by the server's
// policy (as opposed to a spec the registry itself refuses).
var errPolicy = errors.New("refused by the server")

// fileKeys are the spec parameters that name files; specKeys those whose
// value is itself a spec.
var (
	fileKeys = map[string]bool{"ckpt": true, "tb": true, "file": true}
	specKeys = map[string]bool{"fallback": true}
)

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

func (p *policy) rewrite(spec string, depth int) (string, error) {
	if depth > 3 {
		return "", fmt.Errorf("%w: %q nests specs too deep", errPolicy, spec)
	}
	sp, err := agents.ParseSpec(spec)
	if err != nil {
		return "", err
	}
	if sp.Name == "external" && !p.allowExternal {
		return "", fmt.Errorf("%w: %q starts an external engine (start urim serve with --allow-external to allow it)", errPolicy, spec)
	}
	keys := make([]string, 0, len(sp.Params))
	for k := range sp.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := sp.Params[k]
		switch {
		case fileKeys[k] && v != "":
			real, err := p.file(v)
			if err != nil {
				return "", fmt.Errorf("%s=%s: %w", k, v, err)
			}
			v = real
		case specKeys[k]:
			inner, err := p.rewrite(v, depth+1)
			if err != nil {
				return "", err
			}
			v = inner
		default:
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
		return sp.Name, nil
	}
	return sp.Name + ":" + strings.Join(parts, ","), nil
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

// budget checks one parameter against the caps; values the registry will
// refuse anyway (not numbers) pass here.
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
	}
	return nil
}
