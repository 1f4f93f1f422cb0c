package cluster

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/internal/atomicfile"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"

	_ "github.com/urim-rl/urim/agents/all" // every agent kind, for the specs given
)

// WorkerOptions set up a worker.
type WorkerOptions struct {
	// URL is the NATS server's; Credentials reach it.
	URL         string
	Credentials Credentials
	// Run names the run; empty takes the only run on the server.
	Run string
	// ID names the worker in the run (logs, urim cluster status); empty
	// makes one of the host name, the process id and a random suffix.
	ID string
	// Lockstep is the games played in lock-step, handed to the run's
	// algorithm (train.RemotePart.Worker; 0: the run's own, alphazero's
	// selfplay.parallel_games); Threads the threads of the network (0: one
	// per core).
	Lockstep, Threads int
	// Log receives a line per network version and per minute of play.
	Log io.Writer
	// ExitWithParent ends the worker when the process that started it
	// exits (a learner's local worker outliving a killed learner).
	ExitWithParent bool
	// MaxShards stops the worker after that many shards (0: never; tests).
	MaxShards int
}

// worker is one running worker.
type worker struct {
	o        WorkerOptions
	res      *resources
	nc       *nats.Conn
	js       jetstream.JetStream
	cfg      train.Config
	part     *train.RemotePart // the run's algorithm's
	rules    string
	build    string
	version  int
	sess     *train.Session
	chunk    int
	shards   int64
	played   int64
	start    time.Time
	lastBeat time.Time
	maxBytes int
	dir      string // the worker's temporary files
	// session tells this run of the worker from an earlier one of the
	// same id, so that shard ids never repeat.
	session string
	// busy is the time spent encoding and publishing shards.
	busy time.Duration
	// buf holds the finished games not yet sent, the oldest finished at
	// bufSince; pub publishes the shards.
	buf      []dataset.Game
	bufSince time.Time
	pub      publisher
	// lastUnavailable is when the worker last logged a server that did
	// not answer.
	lastUnavailable time.Time
	// evalGames counts the evaluation games played (by serveEval).
	evalGames atomic.Int64
}

// unavailable is a server or cluster that did not answer a request (a
// node away, a leader being elected): the worker plays on and asks again.
type unavailable struct{ error }

func (e *unavailable) Unwrap() error { return e.error }

// fetchChecked returns object of the run's object store, whose SHA-256
// must be sum; what names it in errors. A store that does not give it is
// unavailable (asked again later); a copy of another SHA-256 is an error.
func fetchChecked(ctx context.Context, res *resources, object, sum, what string) ([]byte, error) {
	data, err := res.nets.GetBytes(ctx, object)
	if err != nil {
		return nil, &unavailable{fmt.Errorf("cluster: fetch %s: %w", what, err)}
	}
	if got := sha256Hex(data); got != sum {
		return nil, fmt.Errorf("cluster: %s: SHA-256 %s, published as %s", what, got, sum)
	}
	return data, nil
}

// sha256Hex is the SHA-256 of data in hexadecimal, as objects are named
// and checked.
func sha256Hex(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// errEnough ends a worker that published MaxShards shards.
var errEnough = errors.New("enough shards")

// RunWorker plays self-play for a run until ctx ends: it reads the run's
// config, fetches the newest network (and again after each chunk of games
// whenever a newer one is published), and publishes its finished games in
// shards of cluster.games_per_shard games, asynchronously. The games are
// the run's algorithm's (its train.RemotePart plays each chunk and builds
// its networks' players for tournament jobs): the program the worker runs
// in registers it (urim imports train/all). Stopped at any moment, it
// loses at most the games in progress and the finished games not yet sent
// (when ctx ends it sends those, within a few seconds).
func RunWorker(ctx context.Context, o WorkerOptions) error {
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.ID == "" {
		host, _ := os.Hostname()
		o.ID = fmt.Sprintf("%s-%d-%s", host, os.Getpid(), secret()[:6])
	}
	o.ID = nameToken(o.ID)
	if o.ExitWithParent {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		defer cancel()
		go watchParent(ctx, cancel)
	}
	if o.Run == "" {
		run, err := findRun(ctx, o)
		if err != nil {
			return err
		}
		o.Run = run
	}
	if !train.RunNameOK.MatchString(o.Run) {
		return fmt.Errorf("cluster: %q is not a run name (letters, digits, - and _)", o.Run)
	}
	nc, err := ConnectRun(o.URL, o.Credentials, "urim worker "+o.ID, o.Run)
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncTimeout(pubAckWait))
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	w := &worker{o: o, nc: nc, js: js, version: -1, build: Build(), start: time.Now(), session: secret()[:8], pub: publisher{js: js}}
	if w.dir, err = os.MkdirTemp("", "urim-worker-"); err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	defer os.RemoveAll(w.dir)
	if err := w.join(ctx); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	w.maxBytes = int(nc.MaxPayload()) - 4096
	// Tournament games are played beside self-play, one at a time.
	cfg := w.cfg
	players := newEvalPlayers(w.res, w.dir, &cfg, w.part)
	players.played = &w.evalGames
	ectx, stopEval := context.WithCancel(ctx)
	evalDone := make(chan struct{})
	go func() {
		defer close(evalDone)
		serveEval(ectx, w.res, players, func(format string, a ...any) {
			fmt.Fprintf(w.o.Log, "worker %s: "+format+"\n", append([]any{w.o.ID}, a...)...)
		})
	}()
	defer func() { stopEval(); <-evalDone }()
	for {
		if err := w.refresh(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if !errors.As(err, new(*unavailable)) {
				return err
			}
			// The server or cluster does not answer (a node away, a
			// leader being elected): play on with the network held, or
			// wait for one, and ask again after the next chunk.
			if time.Since(w.lastUnavailable) >= 30*time.Second {
				fmt.Fprintf(w.o.Log, "worker %s: %v (playing on)\n", w.o.ID, err)
				w.lastUnavailable = time.Now()
			}
			if w.sess == nil {
				select {
				case <-ctx.Done():
					return nil
				case <-time.After(time.Second):
				}
				continue
			}
		}
		err := w.part.Play(ctx, w.sess, w.version, w.chunk, func(g *dataset.Game) error { return w.keep(ctx, g) })
		w.chunk++
		switch {
		case errors.Is(err, errEnough):
			return w.drain(ctx)
		case ctx.Err() != nil:
			// The games in progress are lost; the finished ones are sent
			// if the server answers within a few seconds.
			dctx, cancel := context.WithTimeout(context.Background(), 2*pubAckWait)
			defer cancel()
			if err := w.drain(dctx); err != nil {
				fmt.Fprintf(w.o.Log, "worker %s: stopped with %d games not sent: %v\n", w.o.ID, len(w.buf), err)
			}
			return nil
		case err != nil:
			return err
		}
		if time.Since(w.bufSince) >= flushAfter {
			if err := w.send(ctx); err != nil {
				return err
			}
		}
	}
}

// drain sends the games held and waits for every shard's acknowledgement.
func (w *worker) drain(ctx context.Context) error {
	if err := w.send(ctx); err != nil {
		return err
	}
	return w.pub.reap(ctx, 0)
}

// watchParent cancels when the parent process exits.
func watchParent(ctx context.Context, cancel context.CancelFunc) {
	ppid := os.Getppid()
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if os.Getppid() != ppid {
				cancel()
				return
			}
		}
	}
}

// join finds the run (waiting for its learner to publish its config and a
// first network) and reads its config.
func (w *worker) join(ctx context.Context) error {
	run := w.o.Run // RunWorker found it when it was not given
	n := namesOf(run)
	for wait := time.Duration(0); ; wait = time.Second {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		res, err := open(ctx, w.js, n)
		if err != nil {
			if wait == 0 {
				fmt.Fprintf(w.o.Log, "worker %s: waiting for run %s to start (%v)\n", w.o.ID, run, err)
			}
			continue
		}
		w.res = res
		break
	}
	cfgYAML, err := w.res.kv.Get(ctx, keyConfig)
	if err != nil {
		return fmt.Errorf("cluster: run %s: its config: %w", run, err)
	}
	rulesYAML, err := w.res.kv.Get(ctx, keyRules)
	if err != nil {
		return fmt.Errorf("cluster: run %s: its rules: %w", run, err)
	}
	// The rules travel whole: a rules_file of the learner's machine is
	// not on the worker's. The copy lives as long as the worker.
	rulesFile := filepath.Join(w.dir, "rules.yaml")
	if err := atomicfile.WriteFile(rulesFile, rulesYAML.Value()); err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	cfg, err := train.ParseConfig(cfgYAML.Value(), "run "+run+" config", []string{"rules_file=" + rulesFile, "max_plies=0"})
	if err != nil {
		return fmt.Errorf("cluster: run %s: %w", run, err)
	}
	rules, err := cfg.RulesOf()
	if err != nil {
		return err
	}
	part := train.RemotePartOf(cfg.Algorithm)
	if part == nil {
		return fmt.Errorf("cluster: run %s: algorithm %s plays no self-play on workers", run, cfg.Algorithm)
	}
	cfg.Workers = w.o.Threads
	// Every worker plays its own games: its seed is its own.
	var b [8]byte
	_, _ = rand.Read(b[:])
	cfg.Seed = train.Derive(cfg.Seed, uint64(b[0])|uint64(b[1])<<8|uint64(b[2])<<16|uint64(b[3])<<24|uint64(b[4])<<32|uint64(b[5])<<40|uint64(b[6])<<48|uint64(b[7])<<56)
	about := rules.Name
	if part.Worker != nil {
		about += ", " + part.Worker(&cfg, w.o.Lockstep)
	}
	w.cfg, w.part, w.rules = cfg, part, rulesKey(rules)
	fmt.Fprintf(w.o.Log, "worker %s: joined run %s (%s)\n", w.o.ID, run, about)
	return nil
}

// refresh loads the newest network when it is newer than the one playing,
// waiting for a first one.
func (w *worker) refresh(ctx context.Context) error {
	for {
		ni, ok, err := w.res.newest(ctx)
		if err != nil {
			return err
		}
		if ok && ni.Version <= w.version {
			return nil
		}
		if ok {
			return w.load(ctx, ni)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// load fetches network version ni, checks its SHA-256 and rules, and makes
// the session play it.
func (w *worker) load(ctx context.Context, ni netInfo) error {
	if ni.Rules != w.rules {
		return fmt.Errorf("cluster: network %d of run %s is for rules %s, the run's config gives %s", ni.Version, w.res.n.run, ni.Rules, w.rules)
	}
	data, err := fetchChecked(ctx, w.res, ni.Object, ni.SHA256, fmt.Sprintf("network %d", ni.Version))
	if err != nil {
		return err
	}
	ck, err := nn.Decode(data)
	if err != nil {
		return fmt.Errorf("cluster: network %d: %w", ni.Version, err)
	}
	// A shard is of one network version: send the games of the last.
	if err := w.send(ctx); err != nil {
		return err
	}
	if w.sess, err = train.NewSession(w.cfg, ck.Net); err != nil {
		return err
	}
	if err := ck.Check(w.sess.Rules, w.sess.Encoding, nil); err != nil {
		return fmt.Errorf("cluster: network %d: %w", ni.Version, err)
	}
	if w.version >= 0 || ni.Version > 0 {
		fmt.Fprintf(w.o.Log, "worker %s: playing network %d\n", w.o.ID, ni.Version)
	}
	w.version = ni.Version
	return nil
}

// keep holds a finished game, sending the games held as a shard once
// there are games_per_shard of them or the oldest has waited flushAfter,
// then (every few seconds) a heartbeat.
func (w *worker) keep(ctx context.Context, g *dataset.Game) error {
	if len(w.buf) == 0 {
		w.bufSince = time.Now()
	}
	w.buf = append(w.buf, *g)
	w.played++
	if len(w.buf) >= w.cfg.Cluster.GamesPerShard || time.Since(w.bufSince) >= flushAfter {
		if err := w.send(ctx); err != nil {
			return err
		}
	}
	if time.Since(w.lastBeat) >= heartbeatEvery { // the first game's beats at once
		w.beat(ctx)
	}
	if w.o.MaxShards > 0 && w.shards >= int64(w.o.MaxShards) {
		return errEnough
	}
	return nil
}

// send publishes the games held as one shard (none: nothing).
func (w *worker) send(ctx context.Context) error {
	if len(w.buf) == 0 {
		return nil
	}
	if err := w.publish(ctx, w.buf); err != nil {
		return err
	}
	w.buf = nil
	return nil
}

// publish sends games as one shard, halving it while it is too big for a
// message. The publication is asynchronous: publisher bounds the shards
// waiting for their acknowledgement.
func (w *worker) publish(ctx context.Context, games []dataset.Game) error {
	t0 := time.Now()
	defer func() { w.busy += time.Since(t0) }()
	data, err := dataset.Pack(games, w.sess.Encoder.Dim(), w.sess.Game.PitsPerRow())
	if err != nil {
		return err
	}
	if len(data) > w.maxBytes && len(games) > 1 {
		h := len(games) / 2
		if err := w.publish(ctx, games[:h]); err != nil {
			return err
		}
		return w.publish(ctx, games[h:])
	}
	w.shards++
	id := fmt.Sprintf(shardID, w.o.ID, w.session, w.shards)
	msg := nats.NewMsg(w.res.n.shards + "." + w.o.ID)
	msg.Data = data
	msg.Header.Set(hdrShard, id)
	msg.Header.Set(hdrVersion, strconv.Itoa(w.version))
	msg.Header.Set(hdrBuild, w.build)
	msg.Header.Set(hdrRules, w.rules)
	msg.Header.Set(hdrWorker, w.o.ID)
	msg.Header.Set(hdrGames, strconv.Itoa(len(games)))
	// A lost reply (a cluster node going away) is answered by publishing
	// again with the same id: JetStream keeps one copy.
	return w.pub.send(ctx, id, msg)
}

// beat stores the worker's heartbeat (best effort).
func (w *worker) beat(ctx context.Context) {
	host, _ := os.Hostname()
	hb := heartbeat{ID: w.o.ID, Host: host, Build: w.build, Rules: w.rules, Version: w.version,
		Games: w.played, Shards: w.shards, GamesPerS: float64(w.played) / time.Since(w.start).Seconds(), Seen: time.Now().UTC(),
		PublishS: w.busy.Seconds(), EvalGames: w.evalGames.Load()}
	b, _ := json.Marshal(hb)
	if _, err := w.res.kv.Put(ctx, keyWorkers+"."+w.o.ID, b); err == nil {
		w.lastBeat = time.Now()
	}
}

// findRun returns the one run on the server of o, for a worker not told
// which. It asks on a connection of its own: the worker's user may not
// read the replies to it (they may come only on a run's inbox), so such a
// worker must name its run.
func findRun(ctx context.Context, o WorkerOptions) (string, error) {
	nc, err := Connect(o.URL, o.Credentials, "urim worker "+o.ID)
	if err != nil {
		return "", err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return "", fmt.Errorf("cluster: %w", err)
	}
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	runs, err := Runs(lctx, js)
	if err != nil {
		return "", fmt.Errorf("%w (a worker whose user may read only its run's subjects must name the run: --run)", err)
	}
	if len(runs) != 1 {
		return "", fmt.Errorf("cluster: %d runs on %s (%s): name one with --run", len(runs), o.URL, strings.Join(runs, ", "))
	}
	return runs[0], nil
}

// Runs lists the runs on a server: the shard streams' run names.
func Runs(ctx context.Context, js jetstream.JetStream) ([]string, error) {
	var runs []string
	l := js.StreamNames(ctx)
	for name := range l.Name() {
		if run, ok := runOfStream(name); ok {
			runs = append(runs, run)
		}
	}
	if err := l.Err(); err != nil {
		return nil, fmt.Errorf("cluster: list the runs: %w", err)
	}
	slices.Sort(runs)
	return runs, nil
}
