package capi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
)

// Callback is an agent played by the caller (a Python callable): it gets a
// copy of the position and returns its move.
type Callback func(gm *Game) (int, error)

// TournamentPlayer is one entry of a tournament's "agents" list: a spec, or
// a callback index into the callbacks handed to [Tournament] with the
// observation encoding its Game uses.
type TournamentPlayer struct {
	Name     string `json:"name"`
	Spec     string `json:"spec"`
	Callback *int   `json:"callback"`
	Encoding string `json:"encoding"`
}

// tournamentConfig is the JSON Python sends: evaluate.Config's keys, with
// the agents as TournamentPlayer.
type tournamentConfig struct {
	evaluate.Config
	Agents []TournamentPlayer `json:"agents"`
}

// TournamentResult is what [Tournament] returns as JSON: the evaluator's
// result (ratings, pairs, counts) and its Markdown report.
type TournamentResult struct {
	*evaluate.Result
	Report string `json:"report"`
}

// Tournament runs the tournament that cfgJSON describes (evaluate.Config's
// JSON keys over its defaults: rules, games, opening_plies, paired, seed,
// workers, format, anchor, ...) with evaluate.RunTournament and returns its
// result as JSON. Players with a callback index are played by callbacks[k];
// unless workers is given, such a tournament plays one game at a time
// (the callbacks would only queue for Python's lock).
func Tournament(ctx context.Context, cfgJSON []byte, callbacks []Callback) ([]byte, error) {
	tc := tournamentConfig{Config: evaluate.DefaultConfig()}
	dec := json.NewDecoder(bytes.NewReader(cfgJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tc); err != nil {
		return nil, Errorf(ErrArg, "capi: tournament config: %v", err)
	}
	cfg := tc.Config
	cfg.Agents = nil
	hasCallback := false
	for i, p := range tc.Agents {
		pl := evaluate.Player{Name: p.Name, Spec: p.Spec}
		if p.Callback != nil {
			k := *p.Callback
			if k < 0 || k >= len(callbacks) {
				return nil, Errorf(ErrArg, "capi: agent %d: callback %d of %d", i, k, len(callbacks))
			}
			if p.Name == "" {
				return nil, Errorf(ErrArg, "capi: agent %d: an agent played by a callable needs a name", i)
			}
			if p.Spec != "" {
				return nil, Errorf(ErrArg, "capi: agent %q: give a spec or a callable, not both", p.Name)
			}
			enc, err := env.ParseEncoding(orDefault(p.Encoding, "compact"))
			if err != nil {
				return nil, Errorf(ErrArg, "capi: agent %q: %v", p.Name, err)
			}
			pl.New = callbackPlayer(callbacks[k], enc)
			hasCallback = true
		} else if strings.TrimSpace(p.Spec) == "" {
			return nil, Errorf(ErrSpec, "capi: agent %d: no spec (known agents: %s)", i, strings.Join(agents.Names(), ", "))
		}
		cfg.Agents = append(cfg.Agents, pl)
	}
	if hasCallback && cfg.Workers == 0 {
		cfg.Workers = 1
	}
	for _, p := range cfg.Agents {
		if p.New == nil {
			if err := agents.Validate(p.Spec); err != nil {
				return nil, err
			}
		}
	}
	res, err := evaluate.RunTournament(ctx, cfg)
	if err != nil {
		return nil, err
	}
	var md bytes.Buffer
	if err := evaluate.WriteMarkdown(&md, res); err != nil {
		return nil, err
	}
	out, err := json.Marshal(TournamentResult{Result: res, Report: md.String()})
	if err != nil {
		return nil, fmt.Errorf("capi: tournament result: %w", err)
	}
	return out, nil
}

// callbackPlayer makes the agents of a player played by cb: each move hands
// cb a Game holding a copy of the position, observed with the encoding.
func callbackPlayer(cb Callback, enc env.Encoding) func(uint64) (agents.Agent, error) {
	return func(seed uint64) (agents.Agent, error) {
		var encoder *env.Encoder // one per agent, that is per game
		var game *env.Game
		return agents.Func(func(s *env.State) (int, error) {
			if game != s.Game() {
				game, encoder = s.Game(), env.NewEncoder(s.Game(), enc)
			}
			return cb(GameOf(s, encoder))
		}), nil
	}
}
