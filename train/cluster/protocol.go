package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/buildinfo"
	"github.com/urim-rl/urim/train"
)

// The cluster protocol: every name, header, key, message-id scheme, limit
// and timeout that a learner, a worker and a tournament client share. The
// "Protocol" table of docs/distributed.md lists them, and
// TestProtocolTable checks it against this file: a constant here is a row
// there.

// ProtocolVersion is the version of this package's messages. It is part of
// Build, which every shard carries (hdrBuild) and the learner checks, so a
// worker and a learner of different protocols do not mix their games.
// Change it with any change to this file that an older peer would
// misread.
const ProtocolVersion = "1"

// Names of a run's resources: <run> stands for the run name.
const (
	// streamShards is the work-queue stream of self-play shards, published
	// to subjShards+".<worker>".
	streamShards = "URIM_<run>_SHARDS"
	subjShards   = "urim.<run>.shards"
	// bucketRun is the key-value bucket of the run (the key* keys).
	bucketRun = "URIM_<run>"
	// bucketNets is the object store of network versions (netObject).
	bucketNets = "URIM_<run>_NETS"
	// streamEval is the work-queue stream of tournament games to play,
	// published to subjEvalJobs+".<tournament>".
	streamEval   = "URIM_<run>_EVAL"
	subjEvalJobs = "urim.<run>.eval.jobs"
	// streamEvalRes holds their records, published to
	// subjEvalResults+".<tournament>".
	streamEvalRes   = "URIM_<run>_EVALRES"
	subjEvalResults = "urim.<run>.eval.results"
	// inboxRun is the prefix of a run connection's reply subjects
	// (InboxPrefix): the only subjects a worker may subscribe to.
	inboxRun = "_URIM_INBOX.<run>"
)

// ofRun is a name of the constants above for run.
func ofRun(name, run string) string { return strings.Replace(name, "<run>", run, 1) }

// Durable consumers.
const (
	// consumerName is the learner's consumer of streamShards.
	consumerName = "learner"
	// evalConsumer is the consumer of streamEval the workers share.
	evalConsumer = "eval"
)

// Keys of the run's key-value bucket.
const (
	keyConfig  = "config"  // the effective config.yaml
	keyRules   = "rules"   // the rules, as YAML (a rules_file the workers do not have)
	keyNetwork = "network" // netInfo of the newest version
	keyWorkers = "workers" // workers.<id>: a heartbeat
)

// Object names and message ids.
const (
	// netObject is the object of a network version in bucketNets.
	netObject = "net-%06d.ckpt"
	// blobPrefix marks a spec parameter naming a file sent through the
	// run's object store: blob:<SHA-256>, also the object's name.
	blobPrefix = "blob:"
	// shardID is a shard's id (hdrShard) and message id: worker, session,
	// shard count, so that a shard published again is stored once.
	shardID = "%s-%s-%d"
	// evalJobID and evalResultID are the message ids of a tournament's
	// job k and of its record: tournament, k.
	evalJobID    = "%s-%d"
	evalResultID = "rec-%s-%s"
)

// Headers of a shard message.
const (
	hdrShard   = "Urim-Shard"   // shardID
	hdrVersion = "Urim-Version" // the network version that played it
	hdrBuild   = "Urim-Build"   // Build of the worker
	hdrRules   = "Urim-Rules"   // rulesKey of the rules played
	hdrWorker  = "Urim-Worker"  // the worker's id
	hdrGames   = "Urim-Games"   // the games in it
)

// Headers of tournament messages.
const (
	hdrJob   = "Urim-Job"   // the job's index in its tournament
	hdrError = "Urim-Error" // on a record: why the game was not played
)

// Limits and timeouts.
const (
	// maxPayload is the embedded server's largest message: a shard of the
	// longest game fits many times over.
	maxPayload = 8 << 20
	// dedupWindow is how long JetStream remembers a message id, so that a
	// worker publishing a shard again (a lost reply) does not add it twice.
	dedupWindow = 30 * time.Minute
	// evalResultsAge is how long streamEvalRes keeps a record.
	evalResultsAge = 24 * time.Hour
	// ackWait is how long a shard handed to the learner stays its own
	// before JetStream offers it again: longer than any iteration. A
	// restarted learner does not wait for it: it makes its consumer anew,
	// which offers every unacknowledged shard at once.
	ackWait = 12 * time.Hour
	// evalAckWait is how long a job taken by a worker stays its own
	// without news (a worker playing a long game says it is still at it):
	// then the job goes to another worker.
	evalAckWait = 30 * time.Second
	// A job whose checkpoint could not be fetched is offered again after
	// fetchRetryDelay, until it was delivered fetchTries times: then the
	// error goes back to the tournament.
	fetchRetryDelay = 5 * time.Second
	fetchTries      = 5
	// maxOutstanding bounds the shards a worker has published without
	// their acknowledgement: enough to keep playing while acks travel, few
	// enough that a lost connection holds little in memory.
	maxOutstanding = 4
	// pubAckWait is how long a published shard waits for its
	// acknowledgement before it is published again (with the same message
	// id: stored once).
	pubAckWait = 5 * time.Second
	// maxTries bounds the publications of one shard (about a minute of a
	// cluster without a leader).
	maxTries = 120
	// flushAfter sends the games a worker holds once the oldest has waited
	// that long (checked as games end), though fewer than games_per_shard.
	flushAfter = 5 * time.Second
	// heartbeatEvery is how often a worker at most puts its heartbeat;
	// heartbeatFresh how recent one is for the learner to count it.
	heartbeatEvery = 2 * time.Second
	heartbeatFresh = time.Minute
)

// ackBudget is how long Committed tries to have the iteration's shards
// acknowledged (the server restarting, a cluster electing a leader)
// before it fails; ackNote how often it says what it waits for meanwhile.
// Variables: tests shorten them.
var ackBudget, ackNote = 2 * time.Minute, 10 * time.Second

// netInfo, the value of keyNetwork, names a network version in the object
// store.
type netInfo struct {
	Version int    `json:"version"`
	Object  string `json:"object"`
	SHA256  string `json:"sha256"`
	Rules   string `json:"rules"`
	Build   string `json:"build"`
}

// heartbeat is what a worker reports of itself, under keyWorkers.<id>.
type heartbeat struct {
	ID        string    `json:"id"`
	Host      string    `json:"host"`
	Build     string    `json:"build"`
	Rules     string    `json:"rules"`
	Version   int       `json:"version"`
	Games     int64     `json:"games"`
	Shards    int64     `json:"shards"`
	GamesPerS float64   `json:"games_per_s"`
	Seen      time.Time `json:"seen"`
	// PublishS is the time spent encoding and publishing shards.
	PublishS float64 `json:"publish_s"`
	// EvalGames counts the evaluation games played.
	EvalGames int64 `json:"eval_games,omitempty"`
}

func objectName(version int) string { return fmt.Sprintf(netObject, version) }

// names are the JetStream resources of one run.
type names struct {
	run                                          string
	stream, shards                               string
	kv, nets                                     string
	evalStream, evalJobs, resStream, evalResults string
}

func namesOf(run string) names {
	return names{run: run,
		stream: ofRun(streamShards, run), shards: ofRun(subjShards, run),
		kv: ofRun(bucketRun, run), nets: ofRun(bucketNets, run),
		evalStream: ofRun(streamEval, run), evalJobs: ofRun(subjEvalJobs, run),
		resStream: ofRun(streamEvalRes, run), evalResults: ofRun(subjEvalResults, run)}
}

// runOfStream returns the run of a shard stream's name, ok false for
// another stream.
func runOfStream(name string) (string, bool) {
	pre, suf, _ := strings.Cut(streamShards, "<run>")
	run, ok := strings.CutPrefix(name, pre)
	if ok {
		run, ok = strings.CutSuffix(run, suf)
	}
	return run, ok
}

// RunName is the run name of cfg: cluster.run, or the run directory's base
// name with characters other than letters, digits, - and _ made _.
func RunName(cfg *train.Config) (string, error) {
	if cfg.Cluster.Run != "" {
		return cfg.Cluster.Run, nil
	}
	name := nameToken(filepath.Base(filepath.Clean(cfg.Output)))
	if len(name) > 64 {
		name = name[:64]
	}
	if !train.RunNameOK.MatchString(name) {
		return "", fmt.Errorf("cluster: the run directory %q gives no run name: set cluster.run", cfg.Output)
	}
	return name, nil
}

// nameToken returns s with every character but ASCII letters, digits, - and
// _ made _: a run's name, a worker's id, as subjects, stream names and keys
// may hold them.
func nameToken(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}

// rulesKey identifies rules exactly: the SHA-256 of their JSON form.
func rulesKey(r env.Rules) string {
	b, _ := json.Marshal(r)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// Build identifies the running binary for the run: the message protocol,
// the module version and the commit (with +dirty for a modified tree).
func Build() string {
	b := buildinfo.Read()
	s := "p" + ProtocolVersion + " " + b.Version
	if b.Revision != "" {
		s += " " + b.Revision
	}
	if b.Modified {
		s += "+dirty"
	}
	return s
}
