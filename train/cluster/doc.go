// Package cluster spreads a training run's self-play, and optionally its
// evaluation games, over worker processes joined through NATS JetStream
// (docs/distributed.md), in KataGo's split: many self-play workers, one
// learner. protocol.go holds every name, header, key and timeout they
// share, with the protocol's version.
//
// The learner ([Learner], the train.Remote of urim train) publishes every
// network version to the run's object store and consumes self-play shards
// from the run's work-queue stream through a durable consumer, with
// explicit acknowledgement sent only once the iteration holding a shard is
// committed. A worker ([RunWorker], urim worker) reads the run's config,
// fetches the newest network (again whenever a newer one is published),
// plays the run's algorithm's self-play (its train.RemotePart: the package
// knows no algorithm) and publishes its finished games in shards of
// several games (cluster.games_per_shard, fewer when the oldest has waited
// or the network changes) in the dataset format (dataset.Pack), the
// shard's id its message id so that JetStream drops a shard published
// twice.
//
// Tournaments ([EvalRemote]: urim eval --nats, and the run's own rating
// and gating with cluster.evaluation) put each game as a job on the run's
// work-queue stream of tournament games; the workers take jobs through a
// shared durable consumer, one at a time beside their self-play, and
// publish each record to the stream of records, where the tournament
// collects it once.
// Checkpoints the jobs name travel through the object store under their
// SHA-256.
//
// An embedded server ([StartEmbedded]: 127.0.0.1, a free port, storage in
// the run directory, one user for the learner and one for workers that may
// publish only to the run's subjects) serves a run on one machine with no
// set-up.
package cluster
