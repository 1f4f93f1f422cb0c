package train

import (
	"regexp"
	"strings"
)

// Cluster spreads self-play over worker processes joined through NATS
// JetStream (package train/cluster, docs/distributed.md). With neither
// Workers nor NATS set the run is one process, as without the section.
type Cluster struct {
	// Workers starts an embedded NATS server (127.0.0.1, a free port,
	// JetStream storage in the run directory) and that many local worker
	// processes.
	Workers int `yaml:"workers"`
	// NATS is the URL of an existing NATS server or cluster to use instead
	// of an embedded one; workers started elsewhere join it.
	NATS string `yaml:"nats"`
	// Run names the run's subjects, stream, key-value and object-store
	// buckets; empty means the run directory's base name.
	Run string `yaml:"run"`
	// MaxLag is how many network versions older than the learner's a shard
	// may have been played by; older shards are dropped and counted.
	MaxLag int `yaml:"max_lag"`
	// Replicas is the replication of the run's stream and buckets on an
	// existing cluster (1, 3 or 5); the embedded server has one node.
	Replicas int `yaml:"replicas"`
	// WorkerThreads is the threads of each local worker (Workers).
	WorkerThreads int `yaml:"worker_threads"`
	// GamesPerShard is how many finished games a worker sends as one
	// shard (sooner when the oldest has waited a few seconds): fewer,
	// larger messages cost less to send and decode, and a killed worker
	// loses its games not yet sent.
	GamesPerShard int `yaml:"games_per_shard"`
	// Evaluation plays the in-run rating's and gating's games on the
	// workers too, as jobs beside their self-play, instead of in the
	// learner's process: the same games, stored in the same eval/games.jsonl.
	Evaluation bool `yaml:"evaluation"`
	// User names the NATS user; its password comes from URIM_NATS_PASSWORD.
	// A token comes from URIM_NATS_TOKEN. Neither is ever stored or printed.
	User string `yaml:"user"`
	// Creds is a NATS .creds file (or URIM_NATS_CREDS).
	Creds string `yaml:"creds"`
	// TLS names the certificates of a TLS connection (or URIM_NATS_CA,
	// URIM_NATS_CERT and URIM_NATS_KEY).
	TLS ClusterTLS `yaml:"tls"`
}

// ClusterTLS is the TLS of a connection to a NATS server: the CA that
// signed the server's certificate, and the client's certificate and key
// when the server asks for one.
type ClusterTLS struct {
	CA   string `yaml:"ca"`
	Cert string `yaml:"cert"`
	Key  string `yaml:"key"`
}

// Distributed reports whether the run's self-play comes from workers.
func (c Cluster) Distributed() bool { return c.Workers > 0 || c.NATS != "" }

// RunNameOK matches the run names that can name subjects and buckets.
var RunNameOK = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// checkCluster validates the cluster section.
func (c *Config) checkCluster() error {
	cl := c.Cluster
	checks := []error{
		IntRange("cluster.workers", cl.Workers, 0, 256),
		IntRange("cluster.max_lag", cl.MaxLag, 0, 1<<20),
		IntRange("cluster.worker_threads", cl.WorkerThreads, 1, 1024),
		IntRange("cluster.games_per_shard", cl.GamesPerShard, 1, 4096),
	}
	if cl.Replicas != 1 && cl.Replicas != 3 && cl.Replicas != 5 {
		checks = append(checks, bad("cluster.replicas", "%d: allowed 1, 3 or 5", cl.Replicas))
	}
	if cl.Run != "" && !RunNameOK.MatchString(cl.Run) {
		checks = append(checks, bad("cluster.run", "%q: use letters, digits, - and _ (at most 64)", cl.Run))
	}
	if cl.Workers > 0 && cl.NATS != "" {
		checks = append(checks, bad("cluster.workers", "set with cluster.nats: local workers use the embedded server; start workers with urim worker --nats instead"))
	}
	if cl.Evaluation && !cl.Distributed() {
		checks = append(checks, bad("cluster.evaluation", "set without cluster.workers or cluster.nats: there are no workers to play the evaluation games"))
	}
	if spec, ok := specOf(c.Algorithm); ok && cl.Distributed() && spec.Remote == nil {
		if names := distributedAlgorithms(); len(names) > 0 {
			checks = append(checks, bad("cluster", "distributed self-play is for algorithm %s, not %s", strings.Join(names, " or "), c.Algorithm))
		} else {
			checks = append(checks, bad("cluster", "distributed self-play is not available for algorithm %s", c.Algorithm))
		}
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	return nil
}

// DefaultCluster is the cluster section's default: one process.
func DefaultCluster() Cluster {
	return Cluster{MaxLag: 4, Replicas: 1, WorkerThreads: 1, GamesPerShard: 16}
}

// distributedAlgorithms names the algorithms whose self-play workers can
// play (those with a [Spec.Remote]), sorted.
func distributedAlgorithms() []string {
	var names []string
	for _, name := range Algorithms() {
		if spec, _ := specOf(name); spec.Remote != nil {
			names = append(names, name)
		}
	}
	return names
}
