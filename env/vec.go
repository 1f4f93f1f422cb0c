package env

// Vec steps N games of one [Game] together and hands out their tensors in
// flat, row-major buffers that are allocated once and rewritten in place by
// every Step, Reset and ResetMask:
//
//	Obs         float32 (N, ObsDim)  observation of the player to move
//	Mask        float32 (N, P)       1 where the action is legal
//	Legal       Mask    (N)          the same as bit sets
//	Rewards     float32 (N, 2)       players 0 and 1, on the step that ends a game
//	Terminated  bool    (N)          the rules ended the game on this step
//	Truncated   bool    (N)          the ply cap cut the game on this step
//	ToMove      int32   (N)          player to move, 0 or 1
//	FinalObs    float32 (N, ObsDim)  AutoResetSameStep only
//	HasFinalObs bool    (N)          AutoResetSameStep only
//
// The accessors return slices that alias these buffers: read or copy them
// before the next call that changes the batch ([Vec.Bind] points them at
// the caller's arrays instead). A finished game's mask row is all zero.
// docs/tensors.md documents every column.
//
// The batch is split into fixed ranges of game indices, one per worker; the
// workers are started by [NewVec] and live until [Vec.Close], or exit after
// a quarter of a second without work and start again with the next job, so
// a Vec dropped without Close is garbage collected with nothing left
// behind. Stepping
// allocates nothing and takes no lock per game, and the results do not
// depend on the number of workers. A Vec is not safe for concurrent use by
// several goroutines.
type Vec struct {
	g   *Game
	n   int
	p   int
	opt VecOptions
	enc *Encoder

	states     []State
	legal      []Mask
	obs        []float32
	mask       []float32
	rewards    []float32
	terminated []bool
	truncated  []bool
	toMove     []int32
	finalObs   []float32 // AutoResetSameStep only
	hasFinal   []bool    // AutoResetSameStep only
	// own keeps the Vec's own buffers while Bind points the outputs at the
	// caller's; extra holds the extra outputs of the binding.
	own   vecOwn
	extra vecExtras

	// done marks games that have ended and wait for their reset (the next
	// step, or ResetMask when auto-reset is disabled).
	done []bool
	// episode counts the episodes started by each game; it seeds openings.
	episode []uint64

	episodes []Episode // finished since the last ClearEpisodes

	// The job for the workers, set before they are woken.
	job     vecJob
	actions []int32
	sel     []bool

	workers []*vecWorker
	pool    vecSync
	closed  bool
}

// NewVec returns a batch of n games of g, each at the start of its first
// episode (after its random opening, if any). Call Close when done with it
// to stop its workers. A batch that needs more than [VecMaxBytes] is
// refused.
func NewVec(g *Game, n int, opt VecOptions) (*Vec, error) {
	opt, err := opt.normalize(g, n)
	if err != nil {
		return nil, err
	}
	if err := CheckVecMemory(g, n, opt); err != nil {
		return nil, err
	}
	v := &Vec{g: g, n: n, p: g.p, opt: opt, enc: NewEncoder(g, opt.Encoding)}
	d := v.enc.dim
	v.states = make([]State, n)
	v.legal = make([]Mask, n)
	v.obs = make([]float32, n*d)
	v.mask = make([]float32, n*v.p)
	v.rewards = make([]float32, 2*n)
	v.terminated = make([]bool, n)
	v.truncated = make([]bool, n)
	v.toMove = make([]int32, n)
	v.done = make([]bool, n)
	v.episode = make([]uint64, n)
	if opt.AutoReset == AutoResetSameStep {
		v.finalObs = make([]float32, n*d)
		v.hasFinal = make([]bool, n)
	}
	v.own = vecOwn{obs: v.obs, finalObs: v.finalObs, rewards: v.rewards, terminated: v.terminated,
		truncated: v.truncated, hasFinal: v.hasFinal, toMove: v.toMove}
	// A game ends at most once per step, so n records hold any one step's
	// endings: the list grows only if the caller keeps the records of
	// several steps.
	v.episodes = make([]Episode, 0, n)
	v.startWorkers()
	v.dispatch(vecJobReset)
	return v, nil
}

// Game returns the game every episode is played under.
func (v *Vec) Game() *Game { return v.g }

// Len returns N, the number of games.
func (v *Vec) Len() int { return v.n }

// ObsDim returns the number of observation columns.
func (v *Vec) ObsDim() int { return v.enc.dim }

// Actions returns P, the number of actions (columns of the mask).
func (v *Vec) Actions() int { return v.p }

// Options returns the options in effect, defaults filled in.
func (v *Vec) Options() VecOptions { return v.opt }

// Obs returns the observations, N rows of ObsDim columns, each from the
// point of view of its game's player to move. It aliases the Vec's buffer.
func (v *Vec) Obs() []float32 { return v.obs }

// Mask returns the action masks, N rows of P columns: 1 where the action is
// legal, 0 elsewhere and in every column of a finished game. It aliases the
// Vec's buffer.
func (v *Vec) Mask() []float32 { return v.mask }

// Legal returns the legal actions of each game as a bit set (0 for a
// finished game), the same information as Mask. It aliases the Vec's
// buffer.
func (v *Vec) Legal() []Mask { return v.legal }

// Rewards returns N rows of 2 rewards, for player 0 then player 1: the
// result of the game on the step that ended it (truncated games included,
// scored as the rules score them), 0 on every other step. It aliases the
// Vec's buffer.
func (v *Vec) Rewards() []float32 { return v.rewards }

// Terminated reports, for each game, whether the rules ended it on the last
// step (or ended it earlier, when auto-reset is disabled). It aliases the
// Vec's buffer.
func (v *Vec) Terminated() []bool { return v.terminated }

// Truncated reports, for each game, whether the rules' ply cap cut it on the
// last step (or earlier, when auto-reset is disabled). It aliases the Vec's
// buffer.
func (v *Vec) Truncated() []bool { return v.truncated }

// ToMove returns each game's player to move, 0 or 1: the player whose view
// the observation row takes. It aliases the Vec's buffer.
func (v *Vec) ToMove() []int32 { return v.toMove }

// FinalObs returns, under AutoResetSameStep, N rows of ObsDim columns
// holding the last observation of each game that ended on the last step
// (rows of other games are stale: check HasFinalObs). It is nil in the
// other modes and aliases the Vec's buffer.
func (v *Vec) FinalObs() []float32 { return v.finalObs }

// HasFinalObs reports, under AutoResetSameStep, which games ended on the
// last step and so have a FinalObs row. It is nil in the other modes and
// aliases the Vec's buffer.
func (v *Vec) HasFinalObs() []bool { return v.hasFinal }

// State returns a copy of game i's current state.
func (v *Vec) State(i int) State { return v.states[i] }

// Done reports whether game i has ended and waits for its reset.
func (v *Vec) Done(i int) bool { return v.done[i] }

// Episodes returns the records of the games finished since the last
// ClearEpisodes, in the order they finished (by step, then by game index).
// The slice aliases the Vec's list; call ClearEpisodes once they are read,
// or the list keeps growing (and, beyond N records, allocating).
func (v *Vec) Episodes() []Episode { return v.episodes }

// ClearEpisodes empties the list of finished episodes, keeping its memory.
func (v *Vec) ClearEpisodes() { v.episodes = v.episodes[:0] }

// Close stops the workers. The Vec must not be stepped or reset afterwards;
// its buffers stay readable. Close returns nil and may be called twice.
func (v *Vec) Close() error {
	if v.closed {
		return nil
	}
	v.dispatch(vecJobStop)
	v.closed = true
	return nil
}
