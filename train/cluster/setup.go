package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

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
