package train

import (
	"context"
	"fmt"
	"maps"
	"strconv"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/nn"
)

// Remote is self-play played by other processes: the learner's side of a
// distributed run (package train/cluster implements it over NATS
// JetStream). An algorithm that supports it (one with a [RemotePart]:
// alphazero) publishes each network version, collects the games workers
// played in place of playing its own, and lets the remote acknowledge them
// once the iteration holding them is committed, so that every shard is
// trained on exactly once.
type Remote interface {
	// Publish makes the checkpoint at path, network version (iteration)
	// version, the one workers play. Publishing a version again is a no-op.
	Publish(ctx context.Context, version int, path string) error
	// Collect returns the games of at least games finished games from
	// shards played by network versions within the run's max_lag of
	// version, skipping the shards seen reports as committed already.
	Collect(ctx context.Context, version, games int, seen func(shard string) bool) (*RemoteBatch, error)
	// Committed acknowledges the shards of the last Collect: the iteration
	// holding them is committed.
	Committed() error
	// Close releases the connection (and whatever the remote started).
	Close() error
}

// RemoteBatch is what one Collect gathered.
type RemoteBatch struct {
	// Games are the shards' games, in the order they arrived.
	Games []dataset.Game
	// Shards are the ids of the shards the games came from.
	Shards []string
	// DroppedLag counts shards older than max_lag; DroppedRefused shards
	// from workers whose rules or build do not match the run's, or that
	// could not be decoded.
	DroppedLag, DroppedRefused int
}

// Remote returns the run's remote self-play, or nil (one process).
func (s *Session) Remote() Remote { return s.opt.Remote }

// RemotePart is an algorithm's part in a distributed run ([Spec.Remote]):
// what a worker process does with the run's config and the networks the
// learner publishes, which package train/cluster carries without knowing
// the algorithm. An algorithm that has one may be distributed (the cluster
// section); its learner's side reads [Session.Remote] in its Iterate.
type RemotePart struct {
	// Worker, if not nil, readies a worker's copy of the run's config (as
	// the learner published it, with the worker's own seed and threads)
	// for its self-play: lockstep is the worker's games in lock-step
	// (urim worker --games-in-lockstep), 0 for the run's own. It returns
	// what the worker's log says it plays ("100 sims, 16 games in
	// lock-step").
	Worker func(cfg *Config, lockstep int) string
	// Play plays one chunk of a worker's self-play with network version
	// version, session s's network (s.Config is the worker's config). A
	// worker numbers its chunks from 0 (an algorithm may take chunk where
	// its own self-play takes the iteration's number: seeds, openings) and
	// looks for a newer network between chunks, so a chunk is a few
	// seconds of play. Play hands each finished game to emit as it
	// finishes; an error of emit stops the chunk and is returned.
	Play func(ctx context.Context, s *Session, version, chunk int, emit func(*dataset.Game) error) error
	// Player, if not nil, builds for a worker's tournament job the player
	// of a network of the run as the run's evaluation plays it: n is what
	// the [RunNetwork] spec of the algorithm's [Algorithm.Player] names
	// (its Remote spec), net the network of its checkpoint (fetched by the
	// worker), cfg the worker's config of the run. Without it the
	// algorithm's networks play no job on workers.
	Player func(cfg *Config, n RunNetwork, net *nn.Net) (evaluate.Player, error)
}

// RemotePartOf returns the remote part of the registered algorithm name:
// nil when it has none (its runs are one process) or is not registered.
func RemotePartOf(name string) *RemotePart {
	spec, _ := specOf(name)
	return spec.Remote
}

// NetworkAgent names, in an evaluation player's Remote spec
// ([evaluate.Player]), a network of the run as the run's evaluation plays
// it: run-network:ckpt=FILE,iter=N and the algorithm's own parameters
// (alphazero's sims=S). Only a worker of the run builds it (with the
// algorithm's [RemotePart.Player]); it is no agent of the registry.
const NetworkAgent = "run-network"

// RunNetwork is what a [NetworkAgent] spec names.
type RunNetwork struct {
	// Path is the network's checkpoint (ckpt): a file of the learner, or
	// in a job on the workers the run's object store's copy.
	Path string
	// Iter is the network's iteration (iter).
	Iter int
	// Params are the algorithm's own parameters, keys other than ckpt and
	// iter (alphazero's sims).
	Params map[string]string
}

// Spec is n's [NetworkAgent] spec, in canonical form.
func (n RunNetwork) Spec() string {
	p := make(map[string]string, len(n.Params)+2)
	maps.Copy(p, n.Params)
	p["ckpt"], p["iter"] = n.Path, strconv.Itoa(n.Iter)
	return agents.Spec{Name: NetworkAgent, Params: p}.Canonical()
}

// ParseRunNetwork returns what a [NetworkAgent] spec names; ok is false
// for another agent's spec.
func ParseRunNetwork(spec string) (n RunNetwork, ok bool, err error) {
	sp, err := agents.ParseSpec(spec)
	if err != nil || sp.Name != NetworkAgent {
		return n, false, nil
	}
	n.Path = sp.Params["ckpt"]
	it, err := strconv.Atoi(sp.Params["iter"])
	if err != nil || it < 0 || n.Path == "" {
		return n, true, fmt.Errorf("train: %q is not a network of the run (%s:ckpt=FILE,iter=N,...)", spec, NetworkAgent)
	}
	n.Iter = it
	n.Params = map[string]string{}
	for k, v := range sp.Params {
		if k != "ckpt" && k != "iter" {
			n.Params[k] = v
		}
	}
	return n, true, nil
}
