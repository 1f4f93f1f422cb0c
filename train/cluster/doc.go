// Package cluster spreads a training run's self-play over worker processes
// joined through NATS JetStream (docs/distributed.md), in KataGo's split:
// many self-play workers, one learner.
//
// The learner ([Learner], the train.Remote of urim train) publishes every
// network version to the run's object store and consumes self-play shards
// from the run's work-queue stream through a durable consumer, with
// explicit acknowledgement sent only once the iteration holding a shard is
// committed. A worker ([RunWorker], urim worker) reads the run's config,
// fetches the newest network (again whenever a newer one is published),
// plays lock-step self-play and publishes each finished game at once as one
// shard in the dataset format (dataset.Pack), its id the message id
// so that JetStream drops a shard published twice. An embedded server
// ([StartEmbedded]: 127.0.0.1, a free port, storage in the run directory,
// one user for the learner and one for workers that may publish only to
// the run's subjects) serves a run on one machine with no set-up.
package cluster
