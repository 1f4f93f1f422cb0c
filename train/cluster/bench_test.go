//go:build unix

package cluster

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/urim-rl/urim/train"
)

// benchConfig is configs/quickstart.yaml for a few iterations without
// evaluation, in dir. URIM_BENCH_CONFIG names another file of configs/
// (urim.yaml: the canonical run, whose positions cost more to play, so
// that messaging's share is what a real run has) and URIM_BENCH_ITERATIONS
// another iteration count (6 by default). The endgame table of
// training.tablebase_seeds is left out: its build would be timed with the
// run, and the workers play without it.
func benchConfig(b *testing.B, dir string, sets ...string) train.Config {
	name, its := "quickstart.yaml", "6"
	if v := os.Getenv("URIM_BENCH_CONFIG"); v != "" {
		name = v
	}
	if v := os.Getenv("URIM_BENCH_ITERATIONS"); v != "" {
		its = v
	}
	cfg, err := train.LoadConfig(filepath.Join("..", "..", "configs", name),
		append([]string{"output=" + dir, "stop.iterations=" + its, "stop.time=0", "evaluation.every=0", "training.tablebase_seeds=0"}, sets...))
	if err != nil {
		b.Fatal(err)
	}
	return cfg
}

// BenchmarkSelfPlay compares the self-play positions per second of the
// quickstart config in one process with a learner and two local workers
// (one thread each) over the embedded server, on the same cores, and the
// same run with the two workers as goroutines of this process, whose CPU
// profile gives the share of messaging, encoding and decoding (every
// sample with a frame in nats-io's packages or in dataset.Pack and
// Unpack). Run it once, with the profile:
//
//	URIM_BENCH_CPUPROFILE=/tmp/cpu.out go test ./train/cluster/ -run XXX -bench SelfPlay -benchtime 1x -o /tmp/cluster.test
//	go tool pprof -top -focus 'nats-io|dataset\.(Pack|Unpack)' /tmp/cluster.test /tmp/cpu.out | head -4
func BenchmarkSelfPlay(b *testing.B) {
	b.Run("one-process", func(b *testing.B) {
		for range b.N {
			cfg := benchConfig(b, filepath.Join(b.TempDir(), "run"))
			t0 := time.Now()
			if _, err := train.Run(context.Background(), cfg, train.Options{Log: io.Discard}); err != nil {
				b.Fatal(err)
			}
			st, _, _ := train.ReadState(cfg.Output)
			b.ReportMetric(float64(st.Positions)/time.Since(t0).Seconds(), "positions/s")
		}
	})
	b.Run("learner+2workers", func(b *testing.B) {
		for range b.N {
			cfg := benchConfig(b, filepath.Join(b.TempDir(), "run"), "cluster.workers=2", "cluster.worker_threads=1")
			os.Setenv("URIM_CLUSTER_TEST_ROLE", "worker")
			l, err := OpenLearner(context.Background(), &cfg, LearnerOptions{Log: io.Discard, WorkerCommand: testWorkers})
			os.Unsetenv("URIM_CLUSTER_TEST_ROLE")
			if err != nil {
				b.Fatal(err)
			}
			t0 := time.Now()
			if _, err := train.Run(context.Background(), cfg, train.Options{Log: io.Discard, Remote: l}); err != nil {
				b.Fatal(err)
			}
			wall := time.Since(t0)
			js, _ := jetstream.New(l.nc)
			runs, err := Status(context.Background(), js)
			if err != nil || len(runs) != 1 {
				b.Fatal(err)
			}
			l.Close()
			st, _, _ := train.ReadState(cfg.Output)
			// A shard holds several games: the published shards are counted
			// at the games per shard of those trained on.
			m, err := train.ReadMetrics(filepath.Join(cfg.Output, "metrics.csv"))
			if err != nil {
				b.Fatal(err)
			}
			var shards float64
			for _, n := range m.Column("shards") {
				shards += n
			}
			perShard := float64(st.Positions) / shards
			b.ReportMetric(float64(st.Positions)/wall.Seconds(), "positions/s")
			b.ReportMetric(float64(runs[0].Published)*perShard/wall.Seconds(), "played-positions/s")
		}
	})
}

// BenchmarkSelfPlayInProcess is BenchmarkSelfPlay's learner and two
// workers in one process (the workers as goroutines), for its profile.
func BenchmarkSelfPlayInProcess(b *testing.B) {
	for range b.N {
		dir := b.TempDir()
		cfg := benchConfig(b, filepath.Join(dir, "run"))
		emb, err := StartEmbedded(filepath.Join(dir, "nats"), "run")
		if err != nil {
			b.Fatal(err)
		}
		cfg.Cluster.NATS = emb.URL
		os.Setenv(EnvUser, emb.Learner.User)
		os.Setenv(EnvPassword, emb.Learner.Password)
		l, err := OpenLearner(context.Background(), &cfg, LearnerOptions{Log: io.Discard})
		os.Unsetenv(EnvUser)
		os.Unsetenv(EnvPassword)
		if err != nil {
			b.Fatal(err)
		}
		ctx, stop := context.WithCancel(context.Background())
		for i := range 2 {
			go RunWorker(ctx, WorkerOptions{URL: emb.URL, Credentials: emb.Worker, Run: "run", ID: fmt.Sprint("w", i), Threads: 1})
		}
		if path := os.Getenv("URIM_BENCH_CPUPROFILE"); path != "" {
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			if err := pprof.StartCPUProfile(f); err != nil {
				b.Fatal(err)
			}
			defer f.Close()
		}
		t0 := time.Now()
		if _, err := train.Run(context.Background(), cfg, train.Options{Log: io.Discard, Remote: l}); err != nil {
			b.Fatal(err)
		}
		wall := time.Since(t0)
		pprof.StopCPUProfile()
		stop()
		l.Close()
		emb.Shutdown()
		st, _, _ := train.ReadState(cfg.Output)
		b.ReportMetric(float64(st.Positions)/wall.Seconds(), "positions/s")
	}
}
