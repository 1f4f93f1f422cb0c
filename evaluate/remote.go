package evaluate

import (
	"context"
	"errors"
	"fmt"

	"github.com/urim-rl/urim/env"
)

// Remote plays a tournament's games in other processes (package
// train/cluster does it over NATS JetStream). Only players given by a spec
// travel, or those built in code (Player.New) that name a Remote spec.
type Remote interface {
	// Play plays every job and hands each one's record to deliver, from
	// the calling goroutine, in any order. A job may be delivered more
	// than once (a worker that died after playing it): RunTournament
	// keeps the first. Play returns when every job is delivered, on the
	// first error, or when ctx ends.
	Play(ctx context.Context, jobs []Job, deliver func(i int, rec Record)) error
}

// Job is one game of a tournament with everything needed to play it in
// another process: the rules played, the two players' specs, the game's
// seed and opening. PlayJob plays it.
type Job struct {
	// Rules are the rules played, the ply cap applied.
	Rules env.Rules `json:"rules"`
	// Names and Specs are the players by seat: their labels and their
	// agent specs as given; Keys their canonical specs (the store's).
	Names [2]string `json:"names"`
	Specs [2]string `json:"specs"`
	Keys  [2]string `json:"keys"`
	// Seed is the game's seed, Index its index within its pairing,
	// Opening the random plies it starts with.
	Seed    uint64 `json:"seed"`
	Index   int    `json:"index"`
	Opening []int  `json:"opening"`
}

// Key is the store key of the job's game: the record it gives has the
// same RecordKey.
func (j *Job) Key() (string, error) {
	g, err := env.NewGame(j.Rules)
	if err != nil {
		return "", err
	}
	return gameKey(rulesKey(g.Name(), customRules(g.Rules())), g.Rules().MaxPlies, j.Keys, j.Seed, j.Opening), nil
}

// PlayJob plays a job as RunTournament plays its games in one process:
// the same agents from the same seeds, the same record. player, when not
// nil, makes a seat's player from its name and spec (a checkpoint fetched
// to a local file, a network loaded in memory); nil plays the spec as
// given. The record keeps the job's specs.
func PlayJob(ctx context.Context, j Job, player func(name, spec string) (Player, error)) (Record, error) {
	g, err := env.NewGame(j.Rules)
	if err != nil {
		return Record{}, fmt.Errorf("evaluate: job: %w", err)
	}
	jb := job{names: j.Names, specs: j.Keys, seed: j.Seed, index: j.Index}
	for seat := range 2 {
		p := Player{Name: j.Names[seat], Spec: j.Specs[seat]}
		if player != nil {
			if p, err = player(j.Names[seat], j.Specs[seat]); err != nil {
				return Record{}, err
			}
		}
		jb.players[seat] = p
	}
	return playJob(ctx, g, jb, j.Opening)
}

// remoteJob is job j of a tournament as a Job: each player travels as its
// spec, or as its Remote spec when New builds it here.
func remoteJob(g *env.Game, j job, opening []int) (Job, error) {
	out := Job{Rules: g.Rules(), Names: j.names, Keys: j.specs, Seed: j.seed, Index: j.index, Opening: opening}
	for seat, p := range j.players {
		spec := p.Spec
		if p.New != nil {
			spec = p.Remote
		}
		if spec == "" {
			return out, fmt.Errorf("evaluate: %s is built in code and cannot be played by remote workers", p.Label())
		}
		out.Specs[seat] = spec
	}
	return out, nil
}

// errRemoteMismatch is a record delivered for a job that is not the job's.
var errRemoteMismatch = errors.New("evaluate: a remote worker returned the record of another game")

// playRemote plays the games todo of a tournament on r, delivering each
// once: a second record of a job (a worker that died after its game was
// stored) is dropped, and a record that is not its job's game is an error.
func playRemote(ctx context.Context, r Remote, g *env.Game, todo []int, jobAt func(int) job, open *openings,
	deliver func(k int, rec Record) bool) error {
	jobs := make([]Job, len(todo))
	keys := make([]string, len(todo))
	rulesName, maxPlies := rulesKey(g.Name(), customRules(g.Rules())), g.Rules().MaxPlies
	for k, i := range todo {
		j := jobAt(i)
		var err error
		if jobs[k], err = remoteJob(g, j, open.get(j.open)); err != nil {
			return err
		}
		keys[k] = gameKey(rulesName, maxPlies, j.specs, j.seed, jobs[k].Opening)
	}
	done := make([]bool, len(todo))
	var bad error
	err := r.Play(ctx, jobs, func(k int, rec Record) {
		if k < 0 || k >= len(jobs) || done[k] || bad != nil {
			return
		}
		if RecordKey(&rec) != keys[k] {
			bad = fmt.Errorf("%w (job %d: %s against %s)", errRemoteMismatch, k, jobs[k].Names[0], jobs[k].Names[1])
			return
		}
		done[k] = true
		rec.Players, rec.Index = jobs[k].Names, jobs[k].Index
		deliver(k, rec)
	})
	if bad != nil {
		return bad
	}
	if err != nil {
		return err
	}
	for k := range done {
		if !done[k] {
			return fmt.Errorf("evaluate: the remote workers returned no record of game %d of %s against %s", jobs[k].Index, jobs[k].Names[0], jobs[k].Names[1])
		}
	}
	return nil
}
