package env

import (
	"encoding/binary"
	"fmt"
)

// Step plays actions[i] in game i, for every game, and rewrites the batch
// tensors. Actions are relative pit indices 0 … P-1 from the point of view
// of each game's player to move. The actions of games that have ended and
// wait for a reset are ignored (any value will do).
//
// Under IllegalError, an illegal action makes Step return an [*ActionError]
// for the lowest such game index, before any game is stepped; under
// IllegalLoss it ends that game as a loss for the mover. A length other than
// N is an error too.
func (v *Vec) Step(actions []int32) error {
	if len(actions) != v.n {
		return fmt.Errorf("env: Vec.Step: %d actions for %d games", len(actions), v.n)
	}
	if v.opt.Illegal == IllegalError {
		if i := v.firstIllegal(actions); i >= 0 {
			return v.actionError(i, int(actions[i]))
		}
	}
	v.actions = actions
	v.dispatch(vecJobStep)
	v.actions = nil
	return nil
}

// Reset starts a new episode in every game (with a new random opening, if
// any), clears the rewards and flags, and rewrites the tensors. Games cut
// short by Reset leave no Episode record.
func (v *Vec) Reset() { v.dispatch(vecJobReset) }

// ResetMask starts a new episode in each game i with sel[i] set, as Reset
// does, and leaves the others alone. It is how games restart when
// auto-reset is disabled, and it works in every mode. sel must have N
// entries.
func (v *Vec) ResetMask(sel []bool) error {
	if len(sel) != v.n {
		return fmt.Errorf("env: Vec.ResetMask: %d entries for %d games", len(sel), v.n)
	}
	v.sel = sel
	v.dispatch(vecJobResetMask)
	v.sel = nil
	return nil
}

// ActionError reports an illegal action passed to [Vec.Step]. It wraps
// [ErrIllegal].
type ActionError struct {
	Game   int    // index of the game in the batch
	Action int    // the action given
	Legal  []int  // the legal actions of that game
	Why    string // why the action is illegal
}

func (e *ActionError) Error() string {
	return fmt.Sprintf("env: Vec.Step: game %d: illegal action %d, %s (legal: %v)", e.Game, e.Action, e.Why, e.Legal)
}

// Unwrap returns ErrIllegal.
func (e *ActionError) Unwrap() error { return ErrIllegal }

// firstIllegal returns the lowest index of a game that waits for an action
// and got an illegal one, or -1.
func (v *Vec) firstIllegal(actions []int32) int {
	legal, done := v.legal[:len(actions)], v.done[:len(actions)]
	for i, a := range actions {
		if uint32(a) >= MaxActions || legal[i]>>uint32(a)&1 == 0 {
			if !done[i] {
				return i
			}
		}
	}
	return -1
}

func (v *Vec) actionError(i, a int) error {
	s := &v.states[i]
	return &ActionError{Game: i, Action: a, Legal: s.legal.Actions(), Why: s.illegalWhy(a)}
}

// stepRange steps the games of one worker.
func (v *Vec) stepRange(w *vecWorker) {
	sameStep := v.opt.AutoReset == AutoResetSameStep
	disabled := v.opt.AutoReset == AutoResetDisabled
	rewards, mover := v.rewards, v.extra.mover
	for i := w.lo; i < w.hi; i++ {
		if v.done[i] {
			if disabled {
				// A finished game stays as it is; only the reward is spent.
				rewards[2*i], rewards[2*i+1] = 0, 0
				if mover != nil {
					mover[i] = 0
				}
				continue
			}
			v.restart(i)
			continue
		}
		if sameStep {
			v.hasFinal[i] = false
		}
		s := &v.states[i]
		a, who := int(v.actions[i]), s.toMove
		if !s.legal.Has(a) {
			// Only IllegalLoss gets here: Step has checked the rest.
			v.forfeit(w, i)
			continue
		}
		s.Play(a)
		if s.end != Ongoing {
			v.finish(w, i, s.Rewards(v.opt.Reward), false, who)
			continue
		}
		rewards[2*i], rewards[2*i+1] = 0, 0
		if mover != nil {
			mover[i] = 0
		}
		v.terminated[i], v.truncated[i] = false, false
		v.observe(i, s.legal)
	}
}

// forfeit ends game i as a loss for its player to move.
func (v *Vec) forfeit(w *vecWorker, i int) {
	var r [2]float32
	loser := v.states[i].toMove
	r[loser], r[loser^1] = -1, 1
	v.finish(w, i, r, true, loser)
}

// finish reports the end of game i with rewards r, records its episode, and
// either resets it at once (AutoResetSameStep) or marks it done; who is
// the player who moved.
func (v *Vec) finish(w *vecWorker, i int, r [2]float32, illegal bool, who uint8) {
	s := &v.states[i]
	v.rewards[2*i], v.rewards[2*i+1] = r[0], r[1]
	if v.extra.mover != nil {
		v.extra.mover[i] = r[who&1]
	}
	trunc := !illegal && s.end == EndPlyCap
	v.terminated[i], v.truncated[i] = !trunc, trunc
	e := Episode{
		Game:      i,
		Plies:     int(s.ply),
		Steps:     int(s.ply) - v.opt.OpeningPlies,
		Stores:    s.FinalStores(),
		Rewards:   r,
		Reason:    s.end,
		Truncated: trunc,
	}
	if illegal {
		e.Reason = EndIllegalAction
		e.Loser = int(s.toMove)
		e.MatchPoints[1-e.Loser] = 2
	} else {
		e.MatchPoints = s.MatchPoints()
	}
	w.eps = append(w.eps, e)
	if v.opt.AutoReset == AutoResetSameStep {
		d := v.enc.dim
		v.enc.Encode(v.finalObs[i*d:(i+1)*d], s)
		v.hasFinal[i] = true
		v.newGame(i)
		return
	}
	v.done[i] = true
	v.observe(i, 0)
}

// restart starts a new episode in game i and clears its rewards and flags.
func (v *Vec) restart(i int) {
	v.rewards[2*i], v.rewards[2*i+1] = 0, 0
	if v.extra.mover != nil {
		v.extra.mover[i] = 0
	}
	v.terminated[i], v.truncated[i] = false, false
	if v.hasFinal != nil {
		v.hasFinal[i] = false
	}
	v.newGame(i)
}

// newGame puts game i at the start of its next episode and observes it.
func (v *Vec) newGame(i int) {
	v.openingInto(&v.states[i], i, v.episode[i])
	v.episode[i]++
	v.done[i] = false
	v.observe(i, v.states[i].legal)
}

// observe writes game i's observation, mask m, legal set and player to move,
// and the extra outputs bound.
func (v *Vec) observe(i int, m Mask) {
	s := &v.states[i]
	d, p := v.enc.dim, v.p
	v.enc.Encode(v.obs[i*d:(i+1)*d], s)
	m &= 1<<MaxActions - 1
	if !v.extra.noMask {
		// A loop, not copy: memmove's call costs more than 7 stores.
		row, src := v.mask[i*p:(i+1)*p], &vecMaskRows[m]
		for a := range row {
			row[a] = src[a&7] // a < P ≤ 7: the mask only drops the bounds check
		}
	}
	if b := v.extra.bmask; b != nil {
		writeBoolRow(b[i*p:(i+1)*p], m)
	}
	if l := v.extra.legal; l != nil {
		l[i] = m
	}
	v.legal[i] = m
	v.toMove[i] = int32(s.toMove)
}

// writeBoolRow writes the bytes of one bool mask row (p ≤ 7, so that a
// row's bytes are one word of vecBoolRows): six actions, urim's board, in
// two stores; rows are written one by one, as games are observed, so a
// store must not spill into the next row.
func writeBoolRow(row []byte, m Mask) {
	w := vecBoolRows[m]
	if len(row) == 6 {
		binary.LittleEndian.PutUint32(row, uint32(w))
		binary.LittleEndian.PutUint16(row[4:], uint16(w>>32))
		return
	}
	for a := range row {
		row[a] = byte(w >> (8 * (a & 7)))
	}
}
