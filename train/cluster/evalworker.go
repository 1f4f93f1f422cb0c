package cluster

// The workers' side of tournament jobs: the players a job names, the
// networks they load, and the loop that plays jobs and stores records.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/train"
)

// evalPlayers makes the players of a worker's tournament jobs: agent
// specs with their checkpoints fetched from the run's object store, and
// the run's own networks (train.NetworkAgent) built as the run's
// evaluation plays them, from the run's config, by its algorithm's
// train.RemotePart.Player.
type evalPlayers struct {
	res  *resources
	dir  string
	cfg  *train.Config
	part *train.RemotePart
	// nets holds the networks loaded, by checkpoint SHA-256: a rating
	// plays the candidate and the best network in every job.
	nets map[string]*nn.Net
	// played, when set, counts the games answered (the heartbeat's).
	played *atomic.Int64
}

// maxNets bounds the networks a worker keeps loaded for tournament jobs.
const maxNets = 4

// newEvalPlayers makes the players of the jobs of the run of cfg, whose
// algorithm's part in a distributed run is part.
func newEvalPlayers(res *resources, dir string, cfg *train.Config, part *train.RemotePart) *evalPlayers {
	return &evalPlayers{res: res, dir: dir, cfg: cfg, part: part, nets: map[string]*nn.Net{}}
}

// player is the player of seat name with spec in a job.
func (e *evalPlayers) player(ctx context.Context, name, spec string) (evaluate.Player, error) {
	if nw, ok, err := train.ParseRunNetwork(spec); ok {
		if err != nil {
			return evaluate.Player{}, err
		}
		sum, ok := strings.CutPrefix(nw.Path, blobPrefix)
		if !ok {
			return evaluate.Player{}, fmt.Errorf("cluster: %s: the network is not in the run's object store", spec)
		}
		if e.part.Player == nil {
			return evaluate.Player{}, fmt.Errorf("cluster: %s: the networks of algorithm %s play no tournament games on workers", spec, e.cfg.Algorithm)
		}
		net, err := e.net(ctx, sum)
		if err != nil {
			return evaluate.Player{}, err
		}
		p, err := e.part.Player(e.cfg, nw, net)
		if err != nil {
			return evaluate.Player{}, err
		}
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
