package capi

import (
	"encoding/json"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
)

// Game is one game of urim played move by move: a state with the encoder
// and reward kind of its observations. Python's urim.Game wraps it.
type Game struct {
	g      *env.Game
	enc    *env.Encoder
	reward env.RewardKind
	s      env.State
}

// NewGame returns a game of the rules (a preset or a YAML file) at the
// start position, or at position (urim's notation) when it is not empty.
func NewGame(rules, encoding, reward, position string) (*Game, error) {
	r, err := env.FindRules(orDefault(rules, "urim"))
	if err != nil {
		return nil, err
	}
	g, err := env.NewGame(r)
	if err != nil {
		return nil, err
	}
	enc, err := env.ParseEncoding(orDefault(encoding, "compact"))
	if err != nil {
		return nil, err
	}
	rk, err := env.ParseRewardKind(orDefault(reward, "match_points"))
	if err != nil {
		return nil, err
	}
	gm := &Game{g: g, enc: env.NewEncoder(g, enc), reward: rk, s: g.Start()}
	if position != "" && position != "startpos" {
		if gm.s, err = g.ParsePosition(position); err != nil {
			return nil, err
		}
	}
	return gm, nil
}

// GameOf wraps a copy of s, observed with enc (nil: compact).
func GameOf(s *env.State, enc *env.Encoder) *Game {
	if enc == nil {
		enc = env.NewEncoder(s.Game(), env.EncodingCompact)
	}
	return &Game{g: s.Game(), enc: enc, s: *s}
}

// Clone returns an independent copy.
func (gm *Game) Clone() *Game { c := *gm; return &c }

// State returns the current state (the game's own: copy it to keep it).
func (gm *Game) State() *env.State { return &gm.s }

// Env returns the rules' game.
func (gm *Game) Env() *env.Game { return gm.g }

// ObsDim and Actions size the observation and the mask.
func (gm *Game) ObsDim() int  { return gm.enc.Dim() }
func (gm *Game) Actions() int { return gm.g.PitsPerRow() }

// Legal returns the legal actions as a bit set (0 once the game is over).
func (gm *Game) Legal() env.Mask { return gm.s.Legal() }

// Step plays action a; an illegal action is an error and changes nothing.
func (gm *Game) Step(a int) error {
	if gm.s.Terminal() {
		return Errorf(ErrIllegal, "capi: the game is over (%s): no action is legal", gm.s.Reason())
	}
	if err := gm.s.Check(a); err != nil {
		return err
	}
	gm.s.Play(a)
	return nil
}

// Observe writes the observation of the player to move into obs and the
// legal mask into mask.
func (gm *Game) Observe(obs []float32, mask []bool) error {
	if len(obs) != gm.enc.Dim() || len(mask) != gm.Actions() {
		return Errorf(ErrArg, "capi: observe: buffers of %d and %d values, want %d and %d", len(obs), len(mask), gm.enc.Dim(), gm.Actions())
	}
	gm.enc.Encode(obs, &gm.s)
	m := gm.s.Legal()
	for a := range mask {
		mask[a] = m.Has(a)
	}
	return nil
}

// Status is what Python's last() needs after a move.
type Status struct {
	ToMove     int
	Terminated bool
	Truncated  bool
	Rewards    [2]float32 // 0 until the game is over
	Ply        int
}

// Status returns the player to move, the end flags and the rewards.
func (gm *Game) Status() Status {
	st := Status{ToMove: gm.s.ToMove(), Ply: gm.s.Ply()}
	if gm.s.Terminal() {
		st.Truncated = gm.s.Truncated()
		st.Terminated = !st.Truncated
		st.Rewards = gm.s.Rewards(gm.reward)
	}
	return st
}

// Notation returns the position in urim's notation, history included.
func (gm *Game) Notation() string { return gm.s.String() }

// JSON returns the position as `urim replay` writes it (env.PositionRecord),
// with the given game number and the action that led here (-1: none).
func (gm *Game) JSON(game, action int) ([]byte, error) {
	var a *int
	if action >= 0 {
		a = &action
	}
	return json.Marshal(env.NewPositionRecord(game, &gm.s, a))
}

// Probe returns the tablebase report of the position (tablebase.Report as
// JSON) from the table file, which is loaded once per process.
func (gm *Game) Probe(tableFile string) ([]byte, error) {
	t, err := classic.LoadTable(tableFile)
	if err != nil {
		return nil, err
	}
	if err := t.CheckGame(gm.g); err != nil {
		return nil, err
	}
	rep, err := t.ProbePosition(gm.s.String())
	if err != nil {
		return nil, err
	}
	return json.Marshal(rep)
}

// Info returns the game's rules and sizes, for Python.
func (gm *Game) Info() map[string]any {
	return map[string]any{"rules": gm.g.Name(), "obs_dim": gm.enc.Dim(), "actions": gm.Actions(),
		"encoding": gm.enc.Encoding().String(), "reward": gm.reward.String(), "rules_full": gm.g.Rules()}
}
