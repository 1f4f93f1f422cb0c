package train

import (
	"context"

	"github.com/urim-rl/urim/dataset"
)

// Remote is self-play played by other processes: the learner's side of a
// distributed run (package train/cluster implements it over NATS
// JetStream). An algorithm that supports it (alphazero) publishes each
// network version, collects the games workers played in place of playing
// its own, and lets the remote acknowledge them once the iteration holding
// them is committed, so that every shard is trained on exactly once.
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
