package cluster

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
)

// TestPoisonedShardsAreRefused: shards that urim dataset verify would refuse
// (an outcome of 1e30, a NaN value target, a negative policy target, a mask
// with no legal move) are refused, acknowledged, counted and named by
// worker; the learner goes on and takes the next good shard, and a Collect
// made after (a resumed run's) does not see them again.
func TestPoisonedShardsAreRefused(t *testing.T) {
	l, cfg, log := openTestLearner(t)
	rules, err := cfg.RulesOf()
	if err != nil {
		t.Fatal(err)
	}
	g, err := env.NewGame(rules)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := env.ParseEncoding(cfg.Encoding)
	if err != nil {
		t.Fatal(err)
	}
	dim, a := env.NewEncoder(g, enc).Dim(), g.PitsPerRow()
	ctx, cancel := testBudget(t)
	defer cancel()
	if err := RunWorker(ctx, WorkerOptions{URL: l.emb.URL, Credentials: l.emb.Worker, Run: "run", ID: "w", Threads: 1, Log: log, MaxShards: 1}); err != nil {
		t.Fatal(err)
	}
	good := fetchOne(t, l)
	forge := map[string]func(g *dataset.Game){
		"huge-outcome": func(g *dataset.Game) { g.Outcome[0] = 1e30 },
		"nan-outcome":  func(g *dataset.Game) { g.Outcome[0] = float32(math.NaN()) },
		"neg-policy": func(g *dataset.Game) {
			for i := range g.HasPolicy {
				if g.HasPolicy[i] {
					g.Policy[i*a] = -1e6
					return
				}
			}
			t.Fatal("no row with a policy target")
		},
		"no-legal": func(g *dataset.Game) { clear(g.Mask[:a]) },
	}
	nc, err := ConnectRun(l.emb.URL, l.emb.Worker, "test", "run")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	for name, f := range forge {
		games, err := dataset.Unpack(good.Data(), dim, a)
		if err != nil {
			t.Fatal(err)
		}
		f(&games[0])
		data, err := dataset.Pack(games, dim, a)
		if err != nil {
			t.Fatal(err)
		}
		m := nats.NewMsg(l.res.n.shards + ".x")
		m.Data = data
		for k, v := range good.Headers() {
			m.Header[k] = v
		}
		m.Header.Set(hdrWorker, name)
		m.Header.Set(hdrShard, "bad-"+name)
		if _, err := js.PublishMsg(ctx, m, jetstream.WithMsgID("bad-"+name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := RunWorker(ctx, WorkerOptions{URL: l.emb.URL, Credentials: l.emb.Worker, Run: "run", ID: "next", Threads: 1, Log: log, MaxShards: 1}); err != nil {
		t.Fatal(err)
	}
	b, err := l.Collect(ctx, 0, 1, func(string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	if b.DroppedRefused != len(forge) || len(b.Shards) != 1 || !strings.HasPrefix(b.Shards[0], "next-") {
		t.Errorf("refused %d, kept %v; want %d refused and next's shard\n%s", b.DroppedRefused, b.Shards, len(forge), log)
	}
	for name := range forge {
		if want := "worker " + name + ": shard bad-" + name + ": dataset:"; !strings.Contains(log.String(), want) {
			t.Errorf("the log does not say %q:\n%s", want, log)
		}
	}
	if err := l.Committed(); err != nil {
		t.Fatal(err)
	}
	// Refused shards were acknowledged: nothing is offered again.
	fetched, err := l.cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for m := range fetched.Messages() {
		t.Errorf("shard %s offered again", m.Headers().Get(hdrShard))
	}
}
