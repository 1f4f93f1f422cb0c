package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"gopkg.in/yaml.v3"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/internal/progress"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

// keepVersions is how many network versions the object store keeps
// beyond max_lag.
const keepVersions = 2

// LearnerOptions set up a learner.
type LearnerOptions struct {
	// Log receives notes: refused shards (naming the worker), waits.
	Log io.Writer
	// WorkerCommand makes the command line of local worker i
	// (cluster.workers) given the server's URL and the run name; its
	// environment gets the worker's credentials. The program that runs the
	// learner gives it (urim train: its own executable's "worker"); with
	// cluster.workers above 0 it is required.
	WorkerCommand func(i int, url, run string) []string
}

// Learner is the learner's side of a distributed run, the train.Remote of
// urim train: it publishes network versions and collects the workers'
// shards, acknowledging them once they are committed.
type Learner struct {
	res      *resources
	nc       *nats.Conn
	cons     jetstream.Consumer
	emb      *Embedded
	locals   *localWorkers
	log      io.Writer
	maxLag   int
	rules    string
	build    string
	pending  []jetstream.Msg
	held     map[string]bool // shard ids of pending
	last     int             // newest version published
	lastWait time.Time
	testNet  string // a checkpoint to publish (tests)
	drops    map[string]dropped
	check    *dataset.PackedChecker // the checks of urim dataset verify, shard by shard
	eval     *runEval               // cluster.evaluation: the tournament streams are set up
	url      string                 // the server's URL when last connected
}

// dropped sums up one worker's dropped shards in a Collect: those too old
// (counted) and those refused (counted, the first one's reason kept).
type dropped struct {
	lag, refused int
	first        string
}

// logDrops writes at most two lines for a Collect's dropped shards: the
// shards too old, counted per worker (workers that play faster than the
// learner trains), and the shards refused, with the first reason per
// worker (a worker of another build or rules: something to fix).
func (l *Learner) logDrops(version int) {
	workers := make([]string, 0, len(l.drops))
	for w := range l.drops {
		workers = append(workers, w)
	}
	slices.Sort(workers)
	var lag, refused []string
	nLag, nRefused := 0, 0
	for _, w := range workers {
		d := l.drops[w]
		if d.lag > 0 {
			nLag += d.lag
			lag = append(lag, fmt.Sprintf("worker %s %d", w, d.lag))
		}
		if d.refused > 0 {
			nRefused += d.refused
			more := ""
			if d.refused > 1 {
				more = fmt.Sprintf(" (and %d more)", d.refused-1)
			}
			refused = append(refused, fmt.Sprintf("worker %s: %s%s", w, d.first, more))
		}
	}
	if nLag > 0 {
		fmt.Fprintf(l.log, "train: dropped %s too old (played by networks more than max_lag %d versions older than %d): %s\n",
			progress.Count(nLag, "shards"), l.maxLag, version, strings.Join(lag, ", "))
	}
	if nRefused > 0 {
		fmt.Fprintf(l.log, "train: refused %s: %s\n", progress.Count(nRefused, "shards"), strings.Join(refused, "; "))
	}
}

// URL is the server's client URL (the one last connected to, while the
// connection is away).
func (l *Learner) URL() string {
	if u := l.nc.ConnectedUrlRedacted(); u != "" {
		l.url = u
	}
	return l.url
}

// OpenLearner connects the learner of cfg (a validated, distributed
// config): it starts the embedded server and the local workers when
// cluster.workers is set, or connects to cluster.nats, then sets up the
// run's stream, buckets and consumer and publishes the run's config.
func OpenLearner(ctx context.Context, cfg *train.Config, o LearnerOptions) (_ *Learner, err error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	run, err := RunName(cfg)
	if err != nil {
		return nil, err
	}
	rules, err := cfg.RulesOf()
	if err != nil {
		return nil, err
	}
	enc, err := env.ParseEncoding(cfg.Encoding)
	if err != nil {
		return nil, err
	}
	reward, err := env.ParseRewardKind(cfg.Reward)
	if err != nil {
		return nil, err
	}
	check, err := dataset.NewPackedChecker(rules, enc, reward)
	if err != nil {
		return nil, err
	}
	l := &Learner{log: o.Log, maxLag: cfg.Cluster.MaxLag, rules: rulesKey(rules), build: Build(),
		held: map[string]bool{}, last: -1, check: check}
	defer func() {
		if err != nil {
			l.Close()
		}
	}()
	url, creds, replicas := cfg.Cluster.NATS, CredentialsFrom(cfg.Cluster), cfg.Cluster.Replicas
	if cfg.Cluster.Workers > 0 {
		if l.emb, err = StartEmbedded(filepath.Join(cfg.Output, train.ClusterDir), run); err != nil {
			return nil, err
		}
		url, creds, replicas = l.emb.URL, l.emb.Learner, 1
	}
	if l.nc, err = ConnectRun(url, creds, "urim train "+run, run); err != nil {
		return nil, err
	}
	js, err := jetstream.New(l.nc)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	n := namesOf(run)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second) // a server that never answers
	defer cancel()
	if l.res, err = setup(ctx, js, n, replicas); err != nil {
		return nil, err
	}
	if err := l.publishConfig(ctx, cfg, rules); err != nil {
		return nil, err
	}
	if cfg.Cluster.Evaluation {
		if err := setupEval(ctx, js, n, replicas); err != nil {
			return nil, err
		}
		l.eval = &runEval{res: l.res, put: map[string]bool{}}
	}
	// A consumer made anew offers at once every shard not acknowledged:
	// those the last session took but did not commit.
	if err := js.DeleteConsumer(ctx, n.stream, consumerName); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
		return nil, fmt.Errorf("cluster: consumer %s: %w", consumerName, err)
	}
	if l.cons, err = js.CreateOrUpdateConsumer(ctx, n.stream, jetstream.ConsumerConfig{
		Durable: consumerName, AckPolicy: jetstream.AckExplicitPolicy, AckWait: ackWait, MaxDeliver: -1,
		MaxAckPending: -1, Replicas: replicas, Description: "urim train: the learner",
	}); err != nil {
		return nil, fmt.Errorf("cluster: consumer %s: %w", consumerName, err)
	}
	if cfg.Cluster.Workers > 0 {
		if l.locals, err = startLocal(cfg, run, l.emb, o); err != nil {
			return nil, err
		}
	}
	fmt.Fprintf(l.log, "train: run %s over NATS at %s (%s), %d local workers\n", run, l.URL(), creds, cfg.Cluster.Workers)
	return l, nil
}

// publishConfig stores the run's effective config and rules for workers.
func (l *Learner) publishConfig(ctx context.Context, cfg *train.Config, rules env.Rules) error {
	c := *cfg
	c.Cluster = train.DefaultCluster()                  // where the learner's server is and its credentials' files are its own
	c.Cluster.GamesPerShard = cfg.Cluster.GamesPerShard // the workers' to follow
	eff, err := c.Marshal()
	if err != nil {
		return err
	}
	ry, err := yaml.Marshal(rules)
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	if _, err := l.res.kv.Put(ctx, keyConfig, eff); err != nil {
		return fmt.Errorf("cluster: run %s: publish the config: %w", l.res.n.run, err)
	}
	if _, err := l.res.kv.Put(ctx, keyRules, ry); err != nil {
		return fmt.Errorf("cluster: run %s: publish the rules: %w", l.res.n.run, err)
	}
	return nil
}

// Publish stores the checkpoint at path as network version version and
// makes it the newest; the versions too old to be played any more are
// deleted.
func (l *Learner) Publish(ctx context.Context, version int, path string) error {
	if version <= l.last {
		return nil
	}
	data, err := nn.ReadFile(path)
	if err != nil {
		return fmt.Errorf("cluster: publish network %d: %w", version, err)
	}
	ni := netInfo{Version: version, Object: objectName(version), SHA256: sha256Hex(data), Rules: l.rules, Build: l.build}
	meta := map[string]string{"version": strconv.Itoa(version), "sha256": ni.SHA256, "rules": l.rules}
	if _, err := l.res.nets.PutBytes(ctx, ni.Object, data); err != nil {
		return fmt.Errorf("cluster: publish network %d: %w", version, err)
	}
	if err := l.res.nets.UpdateMeta(ctx, ni.Object, jetstream.ObjectMeta{Name: ni.Object, Metadata: meta,
		Description: "urim network version " + strconv.Itoa(version)}); err != nil {
		return fmt.Errorf("cluster: publish network %d: %w", version, err)
	}
	b, _ := json.Marshal(ni)
	if _, err := l.res.kv.Put(ctx, keyNetwork, b); err != nil {
		return fmt.Errorf("cluster: publish network %d: %w", version, err)
	}
	l.last = version
	if old := version - l.maxLag - keepVersions; old >= 0 {
		_ = l.res.nets.Delete(ctx, objectName(old)) // gone already, or never published: nothing to do
	}
	return nil
}

// Collect takes shards until they hold games finished games, then the
// shards waiting already, up to drainFactor times games. Shards whose
// network is more than max_lag versions older than version, shards of
// other rules or builds, and shards that fail the checks of urim dataset
// verify are dropped (acknowledged as terminated) and
// counted; shards seen reports as committed are acknowledged and skipped.
func (l *Learner) Collect(ctx context.Context, version, games int, seen func(string) bool) (*train.RemoteBatch, error) {
	b := &train.RemoteBatch{}
	got := 0
	l.drops = map[string]dropped{}
	defer l.logDrops(version)
	start := time.Now()
	l.lastWait = start
	for got < games {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fctx, cancel := context.WithTimeout(ctx, time.Second)
		// Take about as many shards as the games still wanted fill: a
		// shard fetched is held until the iteration commits.
		want := 1
		if len(b.Shards) > 0 {
			want = max(1, min(64, (games-got)*len(b.Shards)/max(got, 1)))
		}
		batch, err := l.cons.Fetch(want, jetstream.FetchContext(fctx))
		if err != nil {
			cancel()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			l.waiting(got, games, err)
			time.Sleep(100 * time.Millisecond)
			continue // the server is away (a cluster node restarting): try again
		}
		n := 0
		for msg := range batch.Messages() {
			n++
			got += l.take(ctx, msg, version, seen, b)
		}
		cancel()
		if n == 0 {
			err := batch.Error()
			if errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
				err = nil
			}
			l.waiting(got, games, err)
		}
	}
	// Then the shards waiting already, up to drainFactor times the games
	// asked: workers play while the learner trains, and what they played
	// meanwhile is fresh now but would be too old (max_lag) after a few
	// more iterations. An iteration takes more games when workers play
	// faster than the learner trains, and trains on all of them (training
	// steps follow the positions).
	for got < drainFactor*games {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// As many shards as the games still taken fill (a shard fetched
		// is held until the iteration commits).
		want := max(1, min(64, (drainFactor*games-got)*len(b.Shards)/max(got, 1)))
		batch, err := l.cons.FetchNoWait(want)
		if err != nil {
			break
		}
		n := 0
		for msg := range batch.Messages() {
			n++
			got += l.take(ctx, msg, version, seen, b)
		}
		if n == 0 {
			break
		}
	}
	return b, nil
}

// drainFactor bounds the games an iteration takes from the shards waiting:
// this many times selfplay.games_per_iteration.
const drainFactor = 4

// waiting notes, at most every 30 seconds, that the learner waits.
func (l *Learner) waiting(got, games int, err error) {
	if time.Since(l.lastWait) >= 30*time.Second {
		why := ""
		if err != nil {
			why = fmt.Sprintf(" (%v)", err)
		}
		fmt.Fprintf(l.log, "train: waiting for worker shards: %d of %d games%s (%s)\n", got, games, why, l.workersNote())
		l.lastWait = time.Now()
	}
}

// workersNote says, for a wait, which workers are there: those whose
// heartbeat (sent as games end) is recent, else the local ones starting,
// else how to start one.
func (l *Learner) workersNote() string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	seen := 0
	if keys, err := l.res.kv.ListKeys(ctx); err == nil {
		for k := range keys.Keys() {
			if e, err := l.res.kv.Get(ctx, k); err == nil && strings.HasPrefix(k, keyWorkers+".") {
				var hb heartbeat
				if json.Unmarshal(e.Value(), &hb) == nil && time.Since(hb.Seen) < heartbeatFresh {
					seen++
				}
			}
		}
	}
	switch {
	case seen > 0:
		return fmt.Sprintf("%d workers reported in the last minute: they are playing", seen)
	case l.locals != nil:
		return fmt.Sprintf("%d local workers started; none has finished a game yet", len(l.locals.cmds))
	}
	return fmt.Sprintf("no worker has reported yet: start urim worker --nats %s --run %s", l.URL(), l.res.n.run)
}

// take handles one shard message, adding its games to b when it is kept.
// It returns the games kept.
func (l *Learner) take(ctx context.Context, msg jetstream.Msg, version int, seen func(string) bool, b *train.RemoteBatch) int {
	h := msg.Headers()
	id, worker := h.Get(hdrShard), h.Get(hdrWorker)
	if worker == "" {
		worker = "(unnamed)"
	}
	if id == "" {
		id = "(none)"
	}
	drop := func(counter *int, format string, args ...any) int {
		*counter++
		d := l.drops[worker]
		if counter == &b.DroppedLag {
			d.lag++
		} else {
			if d.refused == 0 {
				d.first = fmt.Sprintf("shard %s: %s", id, fmt.Sprintf(format, args...))
			}
			d.refused++
		}
		l.drops[worker] = d
		_ = msg.Term() // it will not be trained on; if the reply is lost JetStream offers it again, and it is dropped again
		return 0
	}
	if seen(id) {
		_ = msg.DoubleAck(ctx) // committed by an earlier session, whose acknowledgement was lost
		return 0
	}
	if l.held[id] {
		return 0 // offered again while held: acknowledged with the first copy
	}
	if bld := h.Get(hdrBuild); bld != l.build {
		return drop(&b.DroppedRefused, "build %q, the learner's is %q", bld, l.build)
	}
	if r := h.Get(hdrRules); r != l.rules {
		return drop(&b.DroppedRefused, "rules %s, the run's are %s", r, l.rules)
	}
	v, err := strconv.Atoi(h.Get(hdrVersion))
	switch {
	case err != nil || v < 0 || v > version:
		return drop(&b.DroppedRefused, "network version %q, the learner's newest is %d", h.Get(hdrVersion), version)
	case version-v > l.maxLag:
		return drop(&b.DroppedLag, "played by network %d, %d versions older than %d (max_lag %d)", v, version-v, version, l.maxLag)
	}
	// The checks of urim dataset verify: a shard that fails them (values out
	// of range, NaN, masks or policies that are not the game's) is refused
	// here, never trained on, and never stops the run.
	games, err := l.check.Unpack(msg.Data())
	if err != nil {
		return drop(&b.DroppedRefused, "%v", err)
	}
	l.pending = append(l.pending, msg)
	l.held[id] = true
	b.Games = append(b.Games, games...)
	b.Shards = append(b.Shards, id)
	return len(games)
}

// Committed acknowledges the shards of the last Collect, waiting for the
// server's confirmation of each: it says every ackNote what it waits for,
// and fails after ackBudget with an error saying so (the iteration is
// committed by then: a resumed run skips its shards).
func (l *Learner) Committed() error {
	start := time.Now()
	deadline, lastNote := start.Add(ackBudget), start
	for len(l.pending) > 0 {
		msg := l.pending[0]
		ctx, cancel := context.WithTimeout(context.Background(), max(time.Millisecond, min(5*time.Second, ackNote, time.Until(deadline))))
		err := msg.DoubleAck(ctx)
		cancel()
		if err == nil {
			l.pending = l.pending[1:]
			continue
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cluster: acknowledge shard %s: the NATS server at %s confirmed none of the last %d shards' acknowledgements in %v (connection %s): %w (the run is committed; a resumed run skips the shards)",
				msg.Headers().Get(hdrShard), l.URL(), len(l.pending), ackBudget, l.nc.Status(), err)
		}
		if time.Since(lastNote) >= ackNote {
			fmt.Fprintf(l.log, "train: waiting for the NATS server at %s to confirm the acknowledgement of %d shards (%v; connection %s): giving up in %v\n",
				l.URL(), len(l.pending), err, l.nc.Status(), time.Until(deadline).Round(time.Second))
			lastNote = time.Now()
		}
		time.Sleep(250 * time.Millisecond)
	}
	l.pending = l.pending[:0]
	clear(l.held)
	return nil
}

// Evaluation plays the run's evaluation games (the in-run rating and
// gating) on its workers, the train.Options.Evaluation of a run with
// cluster.evaluation; nil without it.
func (l *Learner) Evaluation() evaluate.Remote {
	if l.eval == nil {
		return nil
	}
	return l.eval
}

// runEval plays the learner's evaluations on the workers of its run. The
// checkpoints it sends for them (a candidate each iteration) do not pile
// up in the object store: once an evaluation is over, those it put for
// earlier ones and did not use are deleted.
type runEval struct {
	res *resources
	put map[string]bool // SHA-256s of the checkpoints put and not deleted yet
}

func (r *runEval) Play(ctx context.Context, jobs []evaluate.Job, deliver func(int, evaluate.Record)) error {
	b := newBlobs()
	err := playOn(ctx, r.res, jobs, deliver, b)
	used := map[string]bool{}
	for _, sum := range b.sum {
		used[sum] = true
	}
	for sum := range r.put {
		if !used[sum] {
			_ = r.res.nets.Delete(context.Background(), "blob-"+sum) // gone already: nothing to do
			delete(r.put, sum)
		}
	}
	for sum := range b.put {
		r.put[sum] = true
	}
	return err
}

// Close stops the local workers, the connection and the embedded server.
func (l *Learner) Close() error {
	if l.locals != nil {
		l.locals.stop()
	}
	if l.nc != nil {
		l.nc.Close()
	}
	if l.emb != nil {
		l.emb.Shutdown()
	}
	return nil
}
