package alphazero

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

// AlphaZero in a distributed run. The learner's side is collect (the
// workers' games in place of its own self-play) with the shard ids
// state.json keeps; the workers' side is remotePart, which package
// train/cluster runs: a worker's config (its games in lock-step), its
// chunks of self-play (playChunk) and the run's networks as its
// evaluation plays them, for tournament jobs.

// remotePart is AlphaZero's part in a distributed run (its Spec's Remote).
var remotePart = &train.RemotePart{Worker: readyWorker, Play: playChunk, Player: networkPlayer}

// readyWorker sets a worker's games in lock-step (selfplay.parallel_games)
// to lockstep, when given, and says what the worker plays.
func readyWorker(cfg *train.Config, lockstep int) string {
	sp := SelfPlaySection.Of(cfg)
	if lockstep > 0 {
		sp.ParallelGames = lockstep
		SelfPlaySection.Set(cfg, sp)
	}
	return fmt.Sprintf("%s sims, %d games in lock-step", SearchSection.Of(cfg).Sims, sp.ParallelGames)
}

// networkSpec is the Remote spec of iteration it's network, saved at path,
// searching with sims simulations: run-network:ckpt=FILE,iter=N,sims=S.
func networkSpec(path string, it, sims int) string {
	return train.RunNetwork{Path: path, Iter: it, Params: map[string]string{"sims": strconv.Itoa(sims)}}.Spec()
}

// networkPlayer is, on a worker, the player of the run's network that a
// networkSpec names: [EvalPlayer] of the run's config with the spec's
// simulations.
func networkPlayer(cfg *train.Config, n train.RunNetwork, net *nn.Net) (evaluate.Player, error) {
	sims, err := strconv.Atoi(n.Params["sims"])
	if err != nil || sims < 1 || len(n.Params) != 1 {
		return evaluate.Player{}, fmt.Errorf("alphazero: %q is not a network of the run (%s:ckpt=FILE,iter=N,sims=S)", n.Spec(), train.NetworkAgent)
	}
	reward, err := env.ParseRewardKind(cfg.Reward)
	if err != nil {
		return evaluate.Player{}, err
	}
	return EvalPlayer(cfg, reward, n.Iter, sims, net), nil
}

// rememberIterations is how many committed iterations' remote shard ids
// state.json keeps: a shard acknowledged late (the learner stopped between
// the commit and the acknowledgement) comes back at most one iteration
// later, and is recognised and skipped.
const rememberIterations = 2

// remoteColumns are the metrics.csv columns a distributed run adds.
var remoteColumns = []string{"shards", "dropped_lag", "dropped_refused"}

// remoteStats are one iteration's figures of the remote columns.
type remoteStats struct{ shards, droppedLag, droppedRefused int }

func (r remoteStats) cells() []string {
	i := strconv.Itoa
	return []string{i(r.shards), i(r.droppedLag), i(r.droppedRefused)}
}

// seenShards returns the remote shard ids state.json records as committed.
func seenShards(s *train.Session) (map[string]bool, [][]string, error) {
	seen := map[string]bool{}
	if len(s.State.Data) == 0 {
		return seen, nil, nil
	}
	var st windowState
	if err := json.Unmarshal(s.State.Data, &st); err != nil {
		return nil, nil, fmt.Errorf("train: resume: state.json: the replay window: %w", err)
	}
	for _, ids := range st.Remote {
		for _, id := range ids {
			seen[id] = true
		}
	}
	return seen, st.Remote, nil
}

// collect is iteration it's self-play when workers play it: it publishes
// network it-1, the learner's newest, and takes games_per_iteration games
// of the shards the workers sent into the window (and the run's dataset),
// numbered on from the run's last game as the learner's own would be.
func (a *algorithm) collect(ctx context.Context, it int) (*selfPlayStats, remoteStats, error) {
	s, r := a.s, a.s.Remote()
	if err := r.Publish(ctx, it-1, train.CheckpointPath(s.Dir, it-1)); err != nil {
		return nil, remoteStats{}, err
	}
	b, err := r.Collect(ctx, it-1, SelfPlaySection.Of(a.cfg).GamesPerIteration, func(id string) bool { return a.seen[id] })
	if err != nil {
		return nil, remoteStats{}, err
	}
	sp := &selfPlayStats{}
	for i := range b.Games {
		g := &b.Games[i]
		g.Record.ID = s.State.Games + int64(i)
		if g.Record.Reason == dataset.Resigned {
			sp.resigned++
		} else {
			s.Data.Keep(g)
		}
		a.win.keep(g)
		sp.games++
		sp.positions += g.Record.Positions
		sp.plies += g.Record.Plies
	}
	a.recent = append(a.recent, b.Shards)
	if n := len(a.recent); n > rememberIterations {
		a.recent = a.recent[n-rememberIterations:]
	}
	return sp, remoteStats{shards: len(b.Shards), droppedLag: b.DroppedLag, droppedRefused: b.DroppedRefused}, nil
}
