package dataset

import (
	"fmt"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// Search is what a searching agent reports about one decision: the policy
// target and the value estimate.
type Search struct {
	// Policy is the visit distribution over actions (sums to 1 over the
	// legal actions).
	Policy [env.MaxActions]float32
	// Value estimates the result for the player to move, in [-1, 1].
	Value float32
}

// SearchFromInfo turns an agent's report into a Search: the visit counts
// normalised to sum to 1, and the value. It returns false when the report
// has no visits (alpha-beta, say), which has no policy to train on.
func SearchFromInfo(info *agents.SearchInfo) (Search, bool) {
	var s Search
	if info == nil {
		return s, false
	}
	total := 0
	for _, v := range info.Visits {
		total += v
	}
	if total <= 0 {
		return s, false
	}
	for a, v := range info.Visits {
		s.Policy[a] = float32(v) / float32(total)
	}
	s.Value = float32(info.Value)
	return s, true
}

// Game is one finished game with its tensor rows, as [Recorder.Finish]
// returns it and [Writer.Add] takes it. Row i of each array is the i-th
// recorded position; the flat arrays are row-major.
type Game struct {
	Record Record
	// Columns hold Positions rows: Obs rows of ObsDim floats, Mask and
	// Policy rows of Actions values.
	Columns
}

// recordRows is the number of rows a Recorder makes room for at the start
// of a game: most games of the presets are shorter.
const recordRows = 192

// Recorder records the positions of one game at a time. It is not safe for
// concurrent use: a worker keeps one, and a lock-step loop one per game.
type Recorder struct {
	g       *env.Game
	enc     *env.Encoder
	reward  env.RewardKind
	a       int
	game    Game
	movers  []uint8
	started bool
}

// NewRecorder returns a recorder of games of g, encoding observations with
// enc and scoring outcomes with reward.
func NewRecorder(g *env.Game, enc env.Encoding, reward env.RewardKind) *Recorder {
	return &Recorder{g: g, enc: env.NewEncoder(g, enc), reward: reward, a: g.PitsPerRow()}
}

// Start begins the game with the given id and seed, played by the agents
// with specs (by seat) from the opening moves. It drops what the recorder
// held.
func (r *Recorder) Start(id int64, seed uint64, specs [2]string, opening []int) {
	// Fresh arrays (the last game's may still be in a writer's queue),
	// sized for a typical game so that recording grows them rarely.
	n, dim, a := recordRows, r.enc.Dim(), r.a
	r.game = Game{Record: Record{
		ID: id, Seed: seed, Rules: r.g.Rules(), Agents: specs,
		Opening: append([]int{}, opening...),
		Moves:   append(make([]int, 0, len(opening)+n), opening...),
	}, Columns: Columns{
		Obs: make([]float32, 0, n*dim), Mask: make([]bool, 0, n*a), Policy: make([]float32, 0, n*a),
		HasPolicy: make([]bool, 0, n), Value: make([]float32, 0, n), Action: make([]int32, 0, n), Ply: make([]int32, 0, n),
	}}
	r.movers = r.movers[:0]
	r.started = true
}

// Add records that action was played in s (the position before the move)
// and appends the move to the game's moves. search is the mover's search
// report, or nil when it has none (its policy row is then zeros and
// has_policy false). Only a move that is recorded gets a tensor row; use
// [Recorder.Skip] for a move to keep in the record without a row.
func (r *Recorder) Add(s *env.State, action int, search *Search) {
	r.check(s, action)
	g := &r.game
	n := len(g.Obs)
	dim := r.enc.Dim()
	g.Obs = append(g.Obs, make([]float32, dim)...)
	r.enc.Encode(g.Obs[n:], s)
	legal := s.Legal()
	for a := 0; a < r.a; a++ {
		g.Mask = append(g.Mask, legal.Has(a))
	}
	if search != nil {
		g.Policy = append(g.Policy, search.Policy[:r.a]...)
		g.Value = append(g.Value, search.Value)
	} else {
		g.Policy = append(g.Policy, make([]float32, r.a)...)
		g.Value = append(g.Value, 0)
	}
	g.HasPolicy = append(g.HasPolicy, search != nil)
	g.Action = append(g.Action, int32(action))
	g.Ply = append(g.Ply, int32(s.Ply()))
	g.Record.Moves = append(g.Record.Moves, action)
	r.movers = append(r.movers, uint8(s.ToMove()))
}

// Skip appends a move to the game's record without a tensor row (a move a
// training loop does not train on).
func (r *Recorder) Skip(s *env.State, action int) {
	r.check(s, action)
	r.game.Record.Moves = append(r.game.Record.Moves, action)
}

func (r *Recorder) check(s *env.State, action int) {
	if !r.started {
		panic("dataset: Recorder.Add before Start")
	}
	if s.Ply() != len(r.game.Record.Moves) {
		panic(fmt.Sprintf("dataset: Recorder: position at ply %d, but the record holds %d moves", s.Ply(), len(r.game.Record.Moves)))
	}
}

// Finish scores the game from its final position and returns it. The Game
// is the recorder's until the next Start, which drops it: pass it to
// [Writer.Add] (which copies it) before then.
func (r *Recorder) Finish(final *env.State) *Game {
	if !r.started {
		panic("dataset: Recorder.Finish before Start")
	}
	g := &r.game
	rec := &g.Record
	rec.Stores = final.FinalStores()
	rec.Winner = final.Winner()
	rec.MatchPoints = final.MatchPoints()
	rec.Reason = final.Reason().String()
	rec.Plies = len(rec.Moves)
	rec.Positions = len(g.Ply)
	rw := final.Rewards(r.reward)
	g.Outcome = make([]float32, 0, len(r.movers))
	for _, m := range r.movers {
		g.Outcome = append(g.Outcome, rw[m])
	}
	r.started = false
	return g
}

// Resigned is the end reason (Record.Reason) of a game one player resigned.
const Resigned = "resigned"

// Resign ends the game at final, where player resigner gave up, and returns
// it as [Recorder.Finish] does. The record's reason is [Resigned], its winner
// the other player, its stores the seeds captured by then (the seeds left on
// the rows count for nobody) and its match points zero. Every row's outcome
// is −1 for the resigner's moves and +1 for the other player's: the largest
// loss and win under every reward kind.
func (r *Recorder) Resign(final *env.State, resigner int) *Game {
	if !r.started {
		panic("dataset: Recorder.Resign before Start")
	}
	g := &r.game
	rec := &g.Record
	rec.Stores = [2]int{final.Store(0), final.Store(1)}
	rec.Winner = 1 - resigner
	rec.MatchPoints = [2]int{}
	rec.Reason = Resigned
	rec.Plies = len(rec.Moves)
	rec.Positions = len(g.Ply)
	g.Outcome = make([]float32, 0, len(r.movers))
	for _, m := range r.movers {
		g.Outcome = append(g.Outcome, resignedOutcome(int(m), rec.Winner))
	}
	r.started = false
	return g
}

// resignedOutcome is the outcome of a resigned game for mover.
func resignedOutcome(mover, winner int) float32 {
	if mover == winner {
		return 1
	}
	return -1
}
