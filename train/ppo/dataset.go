package ppo

import (
	"fmt"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

// PPO specs recorded as a game's agents (dataset.Record.Agents): the
// learner's policy, and a frozen pool snapshot with its iteration.
const (
	ppoLearnerSpec  = "ppo:learner"
	ppoSnapshotSpec = "ppo:snapshot=%04d"
)

// ppoLog writes a PPO run's games into its dataset (dataset.dir) through
// the loop-independent [train.GameLog]. The vectorized games restart on their own
// (auto-reset), so a game gets its run-wide id when it ends, not when it
// starts: the finished games of the run, numbered in the order they end
// (by step, then by slot), are ids 0, 1, 2, … . Ids are therefore dense, the
// games of the completed iterations are exactly ids 0 … State.Games-1, and
// resuming cuts the dataset back there (dataset.Truncate, as for
// AlphaZero). A resumed session restarts the games that were in play, which
// never got an id, so no game is written twice, and ids are the same from
// run to run with the same config, seed and sessions. Games still in play at
// an iteration's end stay in the log and are written with the iteration
// they end in; those in play when the run stops are not written.
//
// Every move the learner's policy chose gets a row: the observation and
// mask, the policy's distribution over the legal actions (the masked
// softmax of its logits) as the policy target, the value head's value as
// the search value. The moves of a pool snapshot are kept in the record
// without rows. A nil *ppoLog records nothing.
type ppoLog struct {
	log    *train.GameLog
	vec    *env.Vec
	before []env.State // each game's position before the step's move
	key    []int64     // each game's key in log while in play
	keys   int64       // keys handed out (never ids: those are ≥ 0)
	next   int64       // the id of the next game to end
	snap   [][2]int    // each game's snapshot iteration by seat, -1 for the learner
	open   []int
	search dataset.Search
}

// newPPOLog starts recording the games in play in vec, the next to end
// being game next (the games of the run's completed iterations), or returns
// nil without a dataset. Games a previous session left in the log are
// dropped: they restart.
func newPPOLog(l *train.GameLog, vec *env.Vec, next int64) *ppoLog {
	if l == nil {
		return nil
	}
	l.Drop()
	n := vec.Len()
	p := &ppoLog{log: l, vec: vec, next: next, before: make([]env.State, n), key: make([]int64, n), snap: make([][2]int, n)}
	for i := range n {
		p.startGame(i)
	}
	return p
}

// startGame begins recording the game now in slot i (after its opening).
// The record's seed is the vector's (VecOptions.Seed): the opening was drawn
// from it, the slot and the slot's episode count.
func (p *ppoLog) startGame(i int) {
	p.keys++
	p.key[i] = -p.keys
	p.snap[i] = [2]int{-1, -1}
	p.open = p.vec.Opening(i, p.open[:0])
	p.log.Start(p.key[i], p.vec.Options().Seed, [2]string{ppoLearnerSpec, ppoLearnerSpec}, p.open)
}

// specs are the agent specs of slot i's game by seat: a seat a snapshot
// played names the last snapshot that moved there (the pool can drop a
// game's snapshot between iterations; the game then continues against
// another).
func (p *ppoLog) specs(i int) [2]string {
	sp := [2]string{ppoLearnerSpec, ppoLearnerSpec}
	for seat, it := range p.snap[i] {
		if it >= 0 {
			sp[seat] = fmt.Sprintf(ppoSnapshotSpec, it)
		}
	}
	return sp
}

// moves records the moves chosen at step t of the rollout, before the
// vector steps: a row for each learner move (train), from the learner's
// logits and values, and the snapshot moves without.
func (p *ppoLog) moves(s *ppoState, base int, logits, values []float32) {
	if p == nil {
		return
	}
	ro := s.ro
	a := ro.actions
	for i := range p.before {
		k := base + i
		p.before[i] = p.vec.State(i)
		st := &p.before[i]
		act := int(ro.act[k])
		if !ro.train[k] {
			p.snap[i][st.ToMove()] = s.pool[s.slot[i]]
			p.log.Skip(p.key[i], st, act)
			continue
		}
		nn.MaskedSoftmax(p.search.Policy[:a], logits[i*a:(i+1)*a], st.Legal(), 1)
		p.search.Value = values[i]
		p.log.Add(p.key[i], st, act, &p.search)
	}
}

// ended finishes the games that the step ended (terminated or truncated),
// in slot order, giving them the next ids, and starts recording the games
// that replaced them.
func (p *ppoLog) ended(ro *rollout, base int) {
	if p == nil {
		return
	}
	for i := range p.before {
		k := base + i
		if !ro.term[k] && !ro.trunc[k] {
			continue
		}
		final := p.before[i]
		final.Play(int(ro.act[k]))
		p.log.FinishAs(p.key[i], p.next, p.specs(i), &final)
		p.next++
		p.startGame(i)
	}
}
