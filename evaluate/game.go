package evaluate

import (
	"context"
	"fmt"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// Record is one finished game. Seats are indexed by player: 0 is South, who
// moves first, 1 is North.
type Record struct {
	// Rules names the rules (a preset, or custom rules by their name or
	// file); MaxPlies is the ply cap it was played with (0: none).
	Rules    string `json:"rules"`
	MaxPlies int    `json:"max_plies,omitempty"`
	// CustomRules holds the whole rules when they are not a preset, so the
	// record can be checked and reused without the file they came from.
	CustomRules *env.Rules `json:"custom_rules,omitempty"`
	// Players are the names of the two players by seat, Specs their agent
	// specs (in canonical form).
	Players [2]string `json:"players"`
	Specs   [2]string `json:"specs"`
	// Seed is the game's seed, from which each seat's agent seed derives.
	Seed uint64 `json:"seed"`
	// Index is the game's index within its pairing.
	Index int `json:"index"`
	// Opening holds the random plies the game started with; they are also
	// the first moves of Moves.
	Opening []int `json:"opening"`
	// Moves lists every action played, the opening included.
	Moves []int `json:"moves"`
	// Stores are the final stores (seeds left on a row count for its owner),
	// MatchPoints the match points they give.
	Stores      [2]int `json:"stores"`
	MatchPoints [2]int `json:"match_points"`
	// Reason says why the game ended, in env.EndReason's snake_case.
	Reason string `json:"reason"`
	// Plies is the number of moves played, len(Moves).
	Plies int `json:"plies"`
}

// SetRules names the rules the game was played under: their name and ply
// cap, and the rules whole when they are not the preset of their name, so
// that the record of a game under custom rules can be checked and reused
// without their file. Every game record names its rules so: a tournament's,
// training's self-play samples, the web page's.
func (r *Record) SetRules(rules env.Rules) {
	r.Rules, r.MaxPlies, r.CustomRules = rules.Name, rules.MaxPlies, customRules(rules)
}

// Winner returns the seat with more seeds, or -1 for a draw ([env.Winner]).
func (r *Record) Winner() int { return env.Winner(r.Stores) }

// Score returns the result for seat: 1 for a win, 0.5 for a draw, 0 for a
// loss.
func (r *Record) Score(seat int) float64 {
	switch r.Winner() {
	case -1:
		return 0.5
	case seat:
		return 1
	}
	return 0
}

// Seat returns the seat of the player named name, or -1.
func (r *Record) Seat(name string) int {
	switch name {
	case r.Players[0]:
		return 0
	case r.Players[1]:
		return 1
	}
	return -1
}

// ErrAgent is wrapped by every error that an agent caused during a game: an
// error from Act, or an illegal action. It is [agents.ErrAgent].
var ErrAgent = agents.ErrAgent

// Play plays one game of g between players[0] (South) and players[1] (North),
// starting with the opening moves, and returns its record with Opening,
// Moves, Stores, MatchPoints, Reason and Plies filled in. The moves after the
// opening are played by [agents.PlayGame]: each agent sees a copy of the
// position, an agent error or an illegal action stops the game with an error
// wrapping [ErrAgent], and ctx is checked before every move.
func Play(ctx context.Context, g *env.Game, players [2]agents.Agent, opening []int) (Record, error) {
	rec := Record{Opening: append([]int{}, opening...)}
	rec.SetRules(g.Rules())
	s := g.Start()
	for i, a := range opening {
		next, err := s.Apply(a)
		if err != nil {
			return rec, fmt.Errorf("evaluate: opening move %d: %w", i+1, err)
		}
		s = next
	}
	rec.Moves = append(make([]int, 0, len(opening)+64), opening...)
	s, err := agents.PlayGame(ctx, s, players, func(ev agents.MoveEvent) error {
		rec.Moves = append(rec.Moves, ev.Action)
		return nil
	})
	if err != nil {
		return rec, err
	}
	rec.Stores = s.FinalStores()
	rec.MatchPoints = s.MatchPoints()
	rec.Reason = s.Reason().String()
	rec.Plies = len(rec.Moves)
	return rec, nil
}

// openingSeed is the seed of opening number k of a tournament: shared by
// every pairing, so all agents face the same openings.
func openingSeed(seed uint64, k int) uint64 { return derive(seed, 0x6f70656e, uint64(k)) }

// playJob builds the two agents of a game from their players and the game
// seed, plays the game, and closes the agents.
func playJob(ctx context.Context, g *env.Game, j job, opening []int) (rec Record, err error) {
	var players [2]agents.Agent
	defer func() {
		for _, a := range players {
			if a != nil {
				if cerr := agents.Close(a); cerr != nil && err == nil {
					err = cerr
				}
			}
		}
	}()
	for seat, p := range j.players {
		a, err := p.build(agentSeed(j.seed, seat))
		if err != nil {
			return rec, fmt.Errorf("%s: %w", p.Label(), err)
		}
		players[seat] = a
	}
	rec, err = Play(ctx, g, players, opening)
	rec.Players, rec.Index = j.names, j.index
	if err != nil {
		return rec, fmt.Errorf("%s (South) vs %s (North), seed %d: %w", j.names[0], j.names[1], j.seed, err)
	}
	rec.Specs = j.specs
	rec.Seed = j.seed
	return rec, nil
}
