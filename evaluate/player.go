package evaluate

import (
	"fmt"
	"strings"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// Player is one participant of a tournament or an SPRT test: a spec string
// that [agents.New] builds, or a factory of agents, and a name shown in
// reports. Two players may share a spec (random against random) if their
// names differ.
type Player struct {
	// Name labels the player in reports; empty means the spec.
	Name string `yaml:"name" json:"name"`
	// Spec is the agent spec, such as "mcts:sims=200".
	Spec string `yaml:"spec" json:"spec"`
	// New, when not nil, builds the player's agent for one game from that
	// game's seed, instead of agents.New(Spec, seed): an agent held in
	// memory (a network being trained, weights loaded once) plays this way.
	// Spec may then be empty, and Name is required; the spec, or else the
	// name, identifies the player in seeds and stored games. New is called
	// from several goroutines at once when games run in parallel.
	New func(seed uint64) (agents.Agent, error) `yaml:"-" json:"-"`
	// Remote, for a player New builds, is the spec a remote worker
	// (Config.Remote) builds the same agent from, such as a checkpoint of
	// the network held in memory. The player's key (seeds, stored games)
	// stays its own, so its games are the same wherever they are played.
	Remote string `yaml:"-" json:"-"`
}

// key identifies the player's agent in game seeds and store keys: its
// canonical spec, or for a factory without a spec its name.
func (p Player) key() string {
	if p.Spec == "" && p.New != nil {
		return "player=" + p.Name
	}
	return CanonicalSpec(p.Spec)
}

// build makes the player's agent for a game seeded with seed.
func (p Player) build(seed uint64) (agents.Agent, error) {
	if p.New != nil {
		return p.New(seed)
	}
	return agents.New(p.Spec, seed)
}

// check reports a player that cannot play the games of g: no spec and no
// factory, a factory without a name, or a bad spec ([agents.ValidateFor],
// which builds nothing but reads a network's checkpoint to check its rules).
// A nil g checks the spec alone.
func (p Player) check(g *env.Game) error {
	switch {
	case p.New != nil && p.Spec == "" && p.Name == "":
		return fmt.Errorf("a player built in code needs a name")
	case p.New != nil:
		return nil
	case strings.TrimSpace(p.Spec) == "":
		return fmt.Errorf("no agent spec (known agents: %s)", strings.Join(agents.Names(), ", "))
	}
	if g == nil {
		return agents.Validate(p.Spec)
	}
	return agents.ValidateFor(p.Spec, g)
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
	return sp.Canonical()
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
