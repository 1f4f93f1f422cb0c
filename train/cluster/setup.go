package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// dedupWindow is how long JetStream remembers a shard id, so that a worker
// publishing a shard again (a lost reply) does not add it twice.
const dedupWindow = 30 * time.Minute

// resources are the run's JetStream stream, buckets and consumer.
type resources struct {
	n    names
	js   jetstream.JetStream
	kv   jetstream.KeyValue
	nets jetstream.ObjectStore
}

// setup creates (or updates) the run's stream and buckets, replicated
// replicas times.
func setup(ctx context.Context, js jetstream.JetStream, n names, replicas int) (*resources, error) {
	r := &resources{n: n, js: js}
	_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: n.stream, Subjects: []string{n.shards + ".>"}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, Replicas: replicas, Duplicates: dedupWindow, MaxMsgSize: -1,
		Description: "urim run " + n.run + ": self-play shards from workers",
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: stream %s: %w", n.stream, err)
	}
	if r.kv, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: n.kv, Replicas: replicas,
		Storage: jetstream.FileStorage, Description: "urim run " + n.run + ": config, newest network, workers"}); err != nil {
		return nil, fmt.Errorf("cluster: key-value bucket %s: %w", n.kv, err)
	}
	if r.nets, err = js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: n.nets, Replicas: replicas,
		Storage: jetstream.FileStorage, Description: "urim run " + n.run + ": network versions"}); err != nil {
		return nil, fmt.Errorf("cluster: object store %s: %w", n.nets, err)
	}
	return r, nil
}

// open finds the run's buckets, made by its learner.
func open(ctx context.Context, js jetstream.JetStream, n names) (*resources, error) {
	r := &resources{n: n, js: js}
	var err error
	if r.kv, err = js.KeyValue(ctx, n.kv); err != nil {
		return nil, fmt.Errorf("cluster: run %s: %w", n.run, err)
	}
	if r.nets, err = js.ObjectStore(ctx, n.nets); err != nil {
		return nil, fmt.Errorf("cluster: run %s: %w", n.run, err)
	}
	return r, nil
}

// Run keys of the key-value bucket.
const (
	keyConfig  = "config"  // the effective config.yaml
	keyRules   = "rules"   // the rules, as YAML (a rules_file the workers do not have)
	keyNetwork = "network" // netInfo of the newest version
	keyWorkers = "workers" // workers.<id>: a heartbeat
)

// netInfo names a network version in the object store.
type netInfo struct {
	Version int    `json:"version"`
	Object  string `json:"object"`
	SHA256  string `json:"sha256"`
	Rules   string `json:"rules"`
	Build   string `json:"build"`
}

func objectName(version int) string { return fmt.Sprintf("net-%06d.ckpt", version) }

// newest returns the newest published network version, ok false when none
// is.
func (r *resources) newest(ctx context.Context) (netInfo, bool, error) {
	e, err := r.kv.Get(ctx, keyNetwork)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return netInfo{}, false, nil
	}
	if err != nil {
		return netInfo{}, false, &unavailable{fmt.Errorf("cluster: run %s: the newest network: %w", r.n.run, err)}
	}
	var ni netInfo
	if err := json.Unmarshal(e.Value(), &ni); err != nil {
		return netInfo{}, false, fmt.Errorf("cluster: run %s: the newest network: %w", r.n.run, err)
	}
	return ni, true, nil
}

// heartbeat is what a worker reports of itself, under workers.<id>.
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
