package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// RunStatus is what urim cluster status shows of one run.
type RunStatus struct {
	Run string
	// Network is the newest published version (-1: none); Versions the
	// versions the object store holds.
	Network  int
	Versions []int
	// Backlog counts the shards waiting in the stream, Held those the
	// learner took and has not committed yet.
	Backlog, Held uint64
	// Published counts the shards ever stored in the stream.
	Published uint64
	// Evaluation is whether the run has evaluation streams;
	// EvalWaiting counts the evaluation games waiting for a worker,
	// EvalPlaying those workers have taken and not answered yet.
	Evaluation               bool
	EvalWaiting, EvalPlaying uint64
	Workers                  []WorkerStatus
}

// WorkerStatus is one worker's last heartbeat.
type WorkerStatus struct {
	ID, Host, Build string
	// Seen is when it last reported; Version the network it plays.
	Seen      time.Time
	Version   int
	Games     int64
	GamesPerS float64
	// PublishS is the time it spent encoding and publishing shards.
	PublishS float64
	// EvalGames counts the evaluation games it played.
	EvalGames int64
}

// Status reports every run on the server js reaches.
func Status(ctx context.Context, js jetstream.JetStream) ([]RunStatus, error) {
	runs, err := Runs(ctx, js)
	if err != nil {
		return nil, err
	}
	var out []RunStatus
	for _, run := range runs {
		st, err := runStatus(ctx, js, run)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

func runStatus(ctx context.Context, js jetstream.JetStream, run string) (RunStatus, error) {
	n := namesOf(run)
	st := RunStatus{Run: run, Network: -1}
	s, err := js.Stream(ctx, n.stream)
	if err != nil {
		return st, fmt.Errorf("cluster: run %s: %w", run, err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return st, fmt.Errorf("cluster: run %s: %w", run, err)
	}
	st.Backlog, st.Published = info.State.Msgs, info.State.LastSeq
	if c, err := s.Consumer(ctx, consumerName); err == nil {
		if ci, err := c.Info(ctx); err == nil {
			st.Held = uint64(ci.NumAckPending)
			st.Backlog = ci.NumPending
		}
	}
	if es, err := js.Stream(ctx, n.evalStream); err == nil {
		if c, err := es.Consumer(ctx, evalConsumer); err == nil {
			if ci, err := c.Info(ctx); err == nil {
				st.Evaluation, st.EvalWaiting, st.EvalPlaying = true, ci.NumPending, uint64(ci.NumAckPending)
			}
		}
	}
	res, err := open(ctx, js, n)
	if err != nil {
		return st, err
	}
	if ni, ok, err := res.newest(ctx); err == nil && ok {
		st.Network = ni.Version
	}
	objs, err := res.nets.List(ctx)
	if err != nil && !errors.Is(err, jetstream.ErrNoObjectsFound) {
		return st, fmt.Errorf("cluster: run %s: %w", run, err)
	}
	for _, o := range objs {
		var v int
		if _, err := fmt.Sscanf(o.Name, "net-%d.ckpt", &v); err == nil {
			st.Versions = append(st.Versions, v)
		}
	}
	slices.Sort(st.Versions)
	keys, err := res.kv.ListKeys(ctx)
	if err != nil {
		return st, fmt.Errorf("cluster: run %s: %w", run, err)
	}
	for k := range keys.Keys() {
		if !strings.HasPrefix(k, keyWorkers+".") {
			continue
		}
		e, err := res.kv.Get(ctx, k)
		if err != nil {
			continue
		}
		var hb heartbeat
		if json.Unmarshal(e.Value(), &hb) == nil {
			st.Workers = append(st.Workers, WorkerStatus{ID: hb.ID, Host: hb.Host, Build: hb.Build, Seen: hb.Seen,
				Version: hb.Version, Games: hb.Games, GamesPerS: hb.GamesPerS, PublishS: hb.PublishS, EvalGames: hb.EvalGames})
		}
	}
	slices.SortFunc(st.Workers, func(a, b WorkerStatus) int { return strings.Compare(a.ID, b.ID) })
	return st, nil
}
