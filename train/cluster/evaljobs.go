package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/atomicfile"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
	"github.com/urim-rl/urim/train/alphazero"
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

// blobs are the checkpoints one tournament sent: their SHA-256 by path,
// and the SHA-256s this process put in the object store (those not there
// already).
type blobs struct {
	sum map[string]string
	put map[string]bool
}

func newBlobs() *blobs { return &blobs{sum: map[string]string{}, put: map[string]bool{}} }

// sendFiles puts the checkpoint a spec names (ckpt=FILE) in the run's
// object store, named by its SHA-256, and returns the spec naming it so.
func sendFiles(ctx context.Context, res *resources, spec string, sent *blobs) (string, error) {
	if nw, ok, err := alphazero.ParseNetworkSpec(spec); ok {
		if err != nil {
			return "", err
		}
		sum, err := sendFile(ctx, res, nw.Path, sent)
		if err != nil {
			return "", err
		}
		return alphazero.NetworkSpec(blobPrefix+sum, nw.Iter, nw.Sims), nil
	}
	sp, err := agents.ParseSpec(spec)
	if err != nil {
		return spec, nil // agents.New reports it on the worker as here
	}
	path, ok := sp.Params["ckpt"]
	if ok && !strings.HasPrefix(path, blobPrefix) {
		sum, err := sendFile(ctx, res, path, sent)
		if err != nil {
			return "", err
		}
		sp.Params["ckpt"] = blobPrefix + sum
	}
	if err := travels(sp); err != nil {
		return "", err
	}
	return sp.Canonical(), nil
}

// sendFile puts the file at path in the run's object store, named by its
// SHA-256 (once: sent remembers it), and returns the SHA-256.
func sendFile(ctx context.Context, res *resources, path string, sent *blobs) (string, error) {
	sum, ok := sent.sum[path]
	if !ok {
		data, err := nn.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("cluster: %w", err)
		}
		sum = sha256Hex(data)
		if _, err := res.nets.GetInfo(ctx, "blob-"+sum); err != nil {
			if _, err := res.nets.PutBytes(ctx, "blob-"+sum, data); err != nil {
				return "", fmt.Errorf("cluster: send %s: %w", path, err)
			}
			sent.put[sum] = true
		}
		sent.sum[path] = sum
	}
	return sum, nil
}

// fetchBlob returns the local copy in dir of the checkpoint of the run's
// object store whose SHA-256 is sum (ckpt=blob:SUM), fetched once and
// checked.
func fetchBlob(ctx context.Context, res *resources, dir, sum string) (string, error) {
	if len(sum) != 64 || strings.Trim(sum, "0123456789abcdef") != "" {
		return "", fmt.Errorf("cluster: %q is not a SHA-256", sum)
	}
	path := filepath.Join(dir, sum+".ckpt")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	data, err := fetchChecked(ctx, res, "blob-"+sum, sum, "checkpoint "+sum[:12])
	if err != nil {
		return "", err
	}
	if err := atomicfile.WriteFile(path, data); err != nil {
		return "", fmt.Errorf("cluster: %w", err)
	}
	return path, nil
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

// evalPlayers makes the players of a worker's tournament jobs: agent
// specs with their checkpoints fetched from the run's object store, and
// the run's own networks (alphazero.NetworkAgent) built as the run's
// evaluation plays them, from the run's config.
type evalPlayers struct {
	res    *resources
	dir    string
	cfg    *train.Config
	reward env.RewardKind
	// nets holds the networks loaded, by checkpoint SHA-256: a rating
	// plays the candidate and the best network in every job.
	nets map[string]*nn.Net
	// played, when set, counts the games answered (the heartbeat's).
	played *atomic.Int64
}

// maxNets bounds the networks a worker keeps loaded for tournament jobs.
const maxNets = 4

func newEvalPlayers(res *resources, dir string, cfg *train.Config) (*evalPlayers, error) {
	reward, err := env.ParseRewardKind(cfg.Reward)
	if err != nil {
		return nil, err
	}
	return &evalPlayers{res: res, dir: dir, cfg: cfg, reward: reward, nets: map[string]*nn.Net{}}, nil
}

// player is the player of seat name with spec in a job.
func (e *evalPlayers) player(ctx context.Context, name, spec string) (evaluate.Player, error) {
	if nw, ok, err := alphazero.ParseNetworkSpec(spec); ok {
		if err != nil {
			return evaluate.Player{}, err
		}
		sum, ok := strings.CutPrefix(nw.Path, blobPrefix)
		if !ok {
			return evaluate.Player{}, fmt.Errorf("cluster: %s: the network is not in the run's object store", spec)
		}
		net, err := e.net(ctx, sum)
		if err != nil {
			return evaluate.Player{}, err
		}
		p := alphazero.EvalPlayer(e.cfg, e.reward, nw.Iter, nw.Sims, net)
		p.Name = name
		return p, nil
	}
	sp, err := agents.ParseSpec(spec)
	if err != nil {
		return evaluate.Player{Name: name, Spec: spec}, nil // agents.New says what is wrong
	}
	if err := travels(sp); err != nil {
		return evaluate.Player{}, err
	}
	if sum, ok := strings.CutPrefix(sp.Params["ckpt"], blobPrefix); ok {
		path, err := fetchBlob(ctx, e.res, e.dir, sum)
		if err != nil {
			return evaluate.Player{}, err
		}
		sp.Params["ckpt"] = path
		spec = sp.Canonical()
	}
	return evaluate.Player{Name: name, Spec: spec}, nil
}

// net returns the network of the checkpoint whose SHA-256 is sum.
func (e *evalPlayers) net(ctx context.Context, sum string) (*nn.Net, error) {
	if net, ok := e.nets[sum]; ok {
		return net, nil
	}
	path, err := fetchBlob(ctx, e.res, e.dir, sum)
	if err != nil {
		return nil, err
	}
	net, err := nn.LoadNet(path)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	if len(e.nets) >= maxNets {
		clear(e.nets)
	}
	e.nets[sum] = net
	return net, nil
}

// serveEval plays tournament games of the run until ctx ends, one at a
// time, beside the worker's self-play: it takes a job, plays it, publishes
// its record (the job's id as message id: stored once) and only then
// acknowledges the job, so a worker killed mid-game leaves its job to
// another. It never stops the worker: while the run has no tournament
// stream, or the server or cluster does not answer (a node away, a leader
// being elected), it waits and asks again, and self-play goes on.
func serveEval(ctx context.Context, res *resources, players *evalPlayers, log func(format string, a ...any)) {
	n, js := res.n, res.js
	pause := func(d time.Duration) bool {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(d):
			return true
		}
	}
	var cons jetstream.Consumer
	for cons == nil {
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		c, err := js.Consumer(actx, n.evalStream, evalConsumer)
		cancel()
		if err == nil {
			cons = c
		} else if !pause(2 * time.Second) {
			return
		}
	}
	// A game longer than the job's AckWait keeps its job by saying so.
	ackWait := evalAckWait
	if info := cons.CachedInfo(); info != nil && info.Config.AckWait > 0 {
		ackWait = info.Config.AckWait
	}
	for ctx.Err() == nil {
		fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		batch, err := cons.Fetch(1, jetstream.FetchContext(fctx))
		if err != nil {
			cancel()
			pause(time.Second)
			continue
		}
		got := false
		for m := range batch.Messages() {
			got = true
			playEvalJob(ctx, res, players, m, ackWait, log)
		}
		cancel()
		if !got && batch.Error() != nil && !errors.Is(batch.Error(), context.DeadlineExceeded) && !errors.Is(batch.Error(), nats.ErrTimeout) {
			pause(time.Second) // the server away: not a busy loop
		}
	}
}

// playEvalJob plays one tournament game and answers it.
func playEvalJob(ctx context.Context, res *resources, players *evalPlayers, m jetstream.Msg, ackWait time.Duration, log func(string, ...any)) {
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
			t := time.NewTicker(ackWait / 3)
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
		rec, err := evaluate.PlayJob(ctx, j, func(name, spec string) (evaluate.Player, error) { return players.player(ctx, name, spec) })
		close(done)
		if ctx.Err() != nil {
			_ = m.Nak() // stopped: the job goes to another worker at once
			return
		}
		if errors.As(err, new(*unavailable)) && retryFetch(m) {
			// The object store away (a cluster node restarting): the job
			// is offered again a little later, to this worker or another.
			log("tournament %s game %s: %v (offered again)", tid, k, err)
			_ = m.NakWithDelay(fetchRetryDelay)
			return
		}
		if err == nil && testHookEval != nil {
			testHookEval("played")
		}
		if err != nil {
			out.Header.Set(hdrError, err.Error())
		} else {
			out.Data, _ = json.Marshal(rec)
		}
	}
	for try := 0; ; try++ {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := res.js.PublishMsg(pctx, out, jetstream.WithMsgID(fmt.Sprintf(evalResultID, tid, k)))
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
	if players.played != nil {
		players.played.Add(1)
	}
	if testHookEval != nil {
		testHookEval("published")
	}
	if err := m.DoubleAck(ctx); err != nil && !errors.Is(err, context.Canceled) {
		log("tournament %s game %s: acknowledge: %v", tid, k, err)
	}
}

// retryFetch reports whether job m is to be offered again after a failed
// fetch of its checkpoint.
func retryFetch(m jetstream.Msg) bool {
	md, err := m.Metadata()
	return err == nil && md.NumDelivered < fetchTries
}

// testHookEval, when set (tests), is called by a worker once a job's game
// is played ("played", its record not yet published) and once its record
// is published ("published", the job not yet acknowledged): a test stalls
// a worker there to kill it mid-job.
var testHookEval func(stage string)
