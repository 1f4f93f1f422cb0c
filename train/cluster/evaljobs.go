package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/atomicfile"
)

// evalConsumer is the durable consumer the workers share to take
// tournament games.
const evalConsumer = "eval"

// evalAckWait is how long a job taken by a worker stays its own without
// news (a worker playing a long game says it is still at it): then the
// job goes to another worker.
const evalAckWait = 30 * time.Second

// blobPrefix marks a spec parameter naming a file sent through the run's
// object store: blob:<SHA-256>.
const blobPrefix = "blob:"

// Headers of tournament messages.
const (
	hdrJob   = "Urim-Job"
	hdrError = "Urim-Error"
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
		Storage: jetstream.FileStorage, Replicas: replicas, Duplicates: dedupWindow, MaxAge: 24 * time.Hour,
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
	return playOn(ctx, e.res, jobs, deliver)
}

// playOn is EvalRemote.Play on the run's resources res.
func playOn(ctx context.Context, res *resources, jobs []evaluate.Job, deliver func(int, evaluate.Record)) error {
	n, js := res.n, res.js
	tid := secret()[:12]
	blobs := map[string]string{}
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
		if _, err := js.PublishMsg(ctx, msg, jetstream.WithMsgID(tid+"-"+strconv.Itoa(k))); err != nil {
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

// sendFiles puts the checkpoint a spec names (ckpt=FILE) in the run's
// object store, named by its SHA-256, and returns the spec naming it so.
func sendFiles(ctx context.Context, res *resources, spec string, sent map[string]string) (string, error) {
	sp, err := agents.ParseSpec(spec)
	if err != nil {
		return spec, nil // agents.New reports it on the worker as here
	}
	path, ok := sp.Params["ckpt"]
	if !ok || strings.HasPrefix(path, blobPrefix) {
		return spec, nil
	}
	sum, ok := sent[path]
	if !ok {
		data, err := os.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("cluster: %w", err)
		}
		h := sha256.Sum256(data)
		sum = hex.EncodeToString(h[:])
		if _, err := res.nets.GetInfo(ctx, "blob-"+sum); err != nil {
			if _, err := res.nets.PutBytes(ctx, "blob-"+sum, data); err != nil {
				return "", fmt.Errorf("cluster: send %s: %w", path, err)
			}
		}
		sent[path] = sum
	}
	sp.Params["ckpt"] = blobPrefix + sum
	return sp.Canonical(), nil
}

// fetchFiles rewrites a spec naming a checkpoint of the object store
// (ckpt=blob:SUM) to name a local copy in dir, fetched once and checked.
func fetchFiles(ctx context.Context, res *resources, dir, spec string) (string, error) {
	sp, err := agents.ParseSpec(spec)
	if err != nil {
		return spec, nil
	}
	sum, ok := strings.CutPrefix(sp.Params["ckpt"], blobPrefix)
	if !ok {
		return spec, nil
	}
	if len(sum) != 64 || strings.Trim(sum, "0123456789abcdef") != "" {
		return "", fmt.Errorf("cluster: %q is not a SHA-256", sum)
	}
	path := filepath.Join(dir, sum+".ckpt")
	if _, err := os.Stat(path); err != nil {
		data, err := res.nets.GetBytes(ctx, "blob-"+sum)
		if err != nil {
			return "", fmt.Errorf("cluster: fetch checkpoint %s: %w", sum[:12], err)
		}
		if h := sha256.Sum256(data); hex.EncodeToString(h[:]) != sum {
			return "", fmt.Errorf("cluster: checkpoint %s: SHA-256 %x", sum[:12], h)
		}
		if err := atomicfile.WriteFile(path, data); err != nil {
			return "", fmt.Errorf("cluster: %w", err)
		}
	}
	sp.Params["ckpt"] = path
	return sp.Canonical(), nil
}

// serveEval plays tournament games of the run until ctx ends, one at a
// time, beside the worker's self-play: it takes a job, plays it, publishes
// its record (the job's id as message id: stored once) and only then
// acknowledges the job, so a worker killed mid-game leaves its job to
// another.
func serveEval(ctx context.Context, res *resources, dir string, log func(format string, a ...any)) {
	n, js := res.n, res.js
	var cons jetstream.Consumer
	for cons == nil {
		c, err := js.Consumer(ctx, n.evalStream, evalConsumer)
		if err == nil {
			cons = c
			break
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(2 * time.Second):
		}
	}
	for ctx.Err() == nil {
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(5*time.Second))
		if err != nil {
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
			continue
		}
		for m := range batch.Messages() {
			playEvalJob(ctx, res, dir, m, log)
		}
	}
}

// playEvalJob plays one tournament game and answers it.
func playEvalJob(ctx context.Context, res *resources, dir string, m jetstream.Msg, log func(string, ...any)) {
	tid := strings.TrimPrefix(m.Subject(), res.n.evalJobs+".")
	k := m.Headers().Get(hdrJob)
	out := nats.NewMsg(res.n.evalResults + "." + tid)
	out.Header.Set(hdrJob, k)
	var j evaluate.Job
	if err := json.Unmarshal(m.Data(), &j); err != nil {
		out.Header.Set(hdrError, "a job that does not decode: "+err.Error())
	} else {
		done := make(chan struct{})
		go func() { // a long game keeps its job
			t := time.NewTicker(evalAckWait / 3)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
					_ = m.InProgress()
				}
			}
		}()
		rec, err := evaluate.PlayJob(ctx, j, func(name, spec string) (evaluate.Player, error) {
			spec, err := fetchFiles(ctx, res, dir, spec)
			return evaluate.Player{Name: name, Spec: spec}, err
		})
		close(done)
		if ctx.Err() != nil {
			_ = m.Nak() // stopped: the job goes to another worker at once
			return
		}
		if err != nil {
			out.Header.Set(hdrError, err.Error())
		} else {
			out.Data, _ = json.Marshal(rec)
		}
	}
	for try := 0; ; try++ {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := res.js.PublishMsg(pctx, out, jetstream.WithMsgID("rec-"+tid+"-"+k))
		cancel()
		if err == nil {
			break
		}
		if ctx.Err() != nil || try >= maxTries {
			log("tournament %s game %s: publish its record: %v", tid, k, err)
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
	if err := m.DoubleAck(ctx); err != nil && !errors.Is(err, context.Canceled) {
		log("tournament %s game %s: acknowledge: %v", tid, k, err)
	}
}
