package cluster

// The tournament client: evaluation games as jobs on a run's workers
// (OpenEval, EvalRemote.Play), and which specs may travel to them. The
// workers' side is in evalworker.go, the checkpoints' blob store in
// evalblobs.go.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/evaluate"
)

// setupEval creates the streams of tournament jobs and records.
func setupEval(ctx context.Context, js jetstream.JetStream, n names, replicas int) error {
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: n.evalStream, Subjects: []string{n.evalJobs + ".>"}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, Replicas: replicas, Duplicates: dedupWindow,
		Description: "urim run " + n.run + ": tournament games to play",
	}); err != nil {
		return fmt.Errorf("cluster: stream %s: %w", n.evalStream, err)
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, n.evalStream, jetstream.ConsumerConfig{
		Durable: evalConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: evalAckWait, MaxDeliver: -1,
	}); err != nil {
		return fmt.Errorf("cluster: consumer %s of %s: %w", evalConsumer, n.evalStream, err)
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: n.resStream, Subjects: []string{n.evalResults + ".>"}, Retention: jetstream.LimitsPolicy,
		Storage: jetstream.FileStorage, Replicas: replicas, Duplicates: dedupWindow, MaxAge: evalResultsAge,
		Description: "urim run " + n.run + ": records of tournament games",
	}); err != nil {
		return fmt.Errorf("cluster: stream %s: %w", n.resStream, err)
	}
	return nil
}

// EvalRemote plays tournaments (evaluate.Config.Remote) on a run's
// workers: every game is a job on the run's work-queue stream of
// tournament games, its record comes back on another stream, and the
// tournament stores each record once (its store key).
type EvalRemote struct {
	nc  *nats.Conn
	res *resources
}

// OpenEval connects to the run's server to play tournaments on its
// workers, creating the run's tournament streams (and its buckets when
// no learner made them yet).
func OpenEval(ctx context.Context, url string, c Credentials, run string, replicas int) (*EvalRemote, error) {
	nc, err := Connect(url, c, "urim eval")
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("cluster: %w", err)
	}
	if run == "" {
		runs, err := Runs(ctx, js)
		if err != nil {
			nc.Close()
			return nil, err
		}
		if len(runs) != 1 {
			nc.Close()
			return nil, fmt.Errorf("cluster: %d runs on %s (%s): name one with --run", len(runs), url, strings.Join(runs, ", "))
		}
		run = runs[0]
	}
	n := namesOf(run)
	res, err := open(ctx, js, n)
	if err == nil {
		err = setupEval(ctx, js, n, replicas)
	}
	if err != nil {
		nc.Close()
		return nil, err
	}
	return &EvalRemote{nc: nc, res: res}, nil
}

// Close closes the connection.
func (e *EvalRemote) Close() error {
	e.nc.Close()
	return nil
}

// Play publishes the jobs of one tournament and delivers their records as
// they come. The jobs left when it returns are purged.
func (e *EvalRemote) Play(ctx context.Context, jobs []evaluate.Job, deliver func(int, evaluate.Record)) error {
	return playOn(ctx, e.res, jobs, deliver, newBlobs())
}

// playOn is EvalRemote.Play on the run's resources res.
func playOn(ctx context.Context, res *resources, jobs []evaluate.Job, deliver func(int, evaluate.Record), blobs *blobs) error {
	n, js := res.n, res.js
	tid := secret()[:12]
	cons, err := js.OrderedConsumer(ctx, n.resStream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{n.evalResults + "." + tid}})
	if err != nil {
		return fmt.Errorf("cluster: records of tournament %s: %w", tid, err)
	}
	defer func() {
		// Jobs nobody will wait for any more are not played.
		if s, err := js.Stream(context.Background(), n.evalStream); err == nil {
			_ = s.Purge(context.Background(), jetstream.WithPurgeSubject(n.evalJobs+"."+tid))
		}
	}()
	for k := range jobs {
		j := jobs[k]
		for seat := range 2 {
			if j.Specs[seat], err = sendFiles(ctx, res, j.Specs[seat], blobs); err != nil {
				return err
			}
		}
		data, err := json.Marshal(j)
		if err != nil {
			return fmt.Errorf("cluster: %w", err)
		}
		msg := nats.NewMsg(n.evalJobs + "." + tid)
		msg.Data = data
		msg.Header.Set(hdrJob, strconv.Itoa(k))
		if _, err := js.PublishMsg(ctx, msg, jetstream.WithMsgID(fmt.Sprintf(evalJobID, tid, k))); err != nil {
			return fmt.Errorf("cluster: publish game %d of tournament %s: %w", k, tid, err)
		}
	}
	it, err := cons.Messages()
	if err != nil {
		return fmt.Errorf("cluster: records of tournament %s: %w", tid, err)
	}
	defer it.Stop()
	go func() {
		<-ctx.Done()
		it.Stop()
	}()
	got := make([]bool, len(jobs))
	for left := len(jobs); left > 0; {
		m, err := it.Next()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("cluster: records of tournament %s: %w", tid, err)
		}
		k, err := strconv.Atoi(m.Headers().Get(hdrJob))
		if err != nil || k < 0 || k >= len(jobs) {
			continue
		}
		if e := m.Headers().Get(hdrError); e != "" {
			return fmt.Errorf("cluster: game %d of %s against %s: %s", jobs[k].Index, jobs[k].Names[0], jobs[k].Names[1], e)
		}
		var rec evaluate.Record
		if err := json.Unmarshal(m.Data(), &rec); err != nil {
			return fmt.Errorf("cluster: the record of game %d: %w", k, err)
		}
		if !got[k] {
			got[k] = true
			left--
		}
		deliver(k, rec)
	}
	return nil
}

// travels reports why spec cannot be played by a worker, or nil. A job
// carries no program and no file of the publisher's machine to a worker
// (only checkpoints travel, as ckpt=blob:SUM, through the run's object
// store), so whoever may publish jobs cannot make workers read their files
// or run programs. What a spec reads or runs is what its agent declares
// (agents.Inspect), nested agents included, so an agent added later is
// held to the same rule.
func travels(sp agents.Spec) error {
	in, err := agents.Inspect(sp.Canonical())
	if err != nil {
		return nil // not an agent: agents.New reports it, on the worker as here
	}
	return travelsInspected(sp.Canonical(), in)
}

func travelsInspected(spec string, in *agents.Inspection) error {
	if len(in.Programs) > 0 {
		return fmt.Errorf("cluster: %s: agent %s runs a program and is not played by workers", spec, in.Name)
	}
	for _, k := range slices.Sorted(maps.Keys(in.Files)) {
		if v := in.Files[k]; !(k == "ckpt" && strings.HasPrefix(v, blobPrefix)) {
			return fmt.Errorf("cluster: %s: %s=%s names a file of this machine; workers get only checkpoints (ckpt=), through the run's object store", spec, k, v)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(in.Specs)) {
		if err := travelsInspected(spec, in.Specs[k]); err != nil {
			return err
		}
	}
	return nil
}
