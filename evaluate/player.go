package evaluate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/urim-rl/urim/agents"
)

// Player is one participant of a tournament: a spec string that
// [agents.New] builds, and a name shown in reports. Two players may share a
// spec (random against random) if their names differ.
type Player struct {
	// Name labels the player in reports; empty means the spec.
	Name string `yaml:"name" json:"name"`
	// Spec is the agent spec, such as "mcts:sims=200".
	Spec string `yaml:"spec" json:"spec"`
}

// Label returns the name, or the spec when the name is empty.
func (p Player) Label() string {
	if p.Name != "" {
		return p.Name
	}
	return p.Spec
}

// CanonicalSpec rewrites an agent spec in one form: the name, then the
// parameters sorted by key ("mcts:c=1.4,sims=200"), so that two ways of
// writing the same agent share stored games and seeds. A spec that does not
// parse is returned trimmed and unchanged; [agents.New] reports it.
func CanonicalSpec(spec string) string {
	sp, err := agents.ParseSpec(spec)
	if err != nil {
		return strings.TrimSpace(spec)
	}
	if len(sp.Params) == 0 {
		return sp.Name
	}
	keys := make([]string, 0, len(sp.Params))
	for k := range sp.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := sp.Params[k]
		if strings.ContainsAny(v, ",") {
			v = "'" + v + "'"
		}
		parts[i] = k + "=" + v
	}
	return sp.Name + ":" + strings.Join(parts, ",")
}

// SplitSpecs splits a comma-separated list of agent specs, as typed after
// --agents. A comma also separates the parameters of one spec, so a part of
// the form key=value (an '=' before any ':') continues the previous spec:
//
//	"random,greedy,mcts:sims=200,c=1.4" → random | greedy | mcts:sims=200,c=1.4
//
// Single quotes protect commas inside a value, as in specs.
func SplitSpecs(list string) []string {
	var out []string
	for _, part := range splitOutsideQuotes(list) {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		eq, colon := strings.Index(part, "="), strings.Index(part, ":")
		if len(out) > 0 && eq > 0 && (colon < 0 || eq < colon) && strings.Contains(out[len(out)-1], ":") {
			out[len(out)-1] += "," + part
			continue
		}
		out = append(out, part)
	}
	return out
}

func splitOutsideQuotes(s string) []string {
	var out []string
	start, quoted := 0, false
	for i, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
		case r == ',' && !quoted:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// PlayersFromSpecs returns one player per spec. Specs written twice get the
// names "spec#1", "spec#2", … so every player has its own name.
func PlayersFromSpecs(specs []string) []Player {
	count := map[string]int{}
	for _, s := range specs {
		count[CanonicalSpec(s)]++
	}
	seen := map[string]int{}
	out := make([]Player, len(specs))
	for i, s := range specs {
		c := CanonicalSpec(s)
		out[i] = Player{Spec: strings.TrimSpace(s)}
		if count[c] > 1 {
			seen[c]++
			out[i].Name = fmt.Sprintf("%s#%d", strings.TrimSpace(s), seen[c])
		}
	}
	return out
}
