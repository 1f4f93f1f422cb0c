//go:build unix

package cluster

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/urim-rl/urim/train"
)

// benchConfig is configs/quickstart.yaml for a few iterations without
// evaluation, in dir.
func benchConfig(b *testing.B, dir string, sets ...string) train.Config {
	cfg, err := train.LoadConfig(filepath.Join("..", "..", "configs", "quickstart.yaml"),
		append([]string{"output=" + dir, "stop.iterations=3", "stop.time=0", "evaluation.every=0"}, sets...))
	if err != nil {
		b.Fatal(err)
	}
	return cfg
}

// cpu returns the CPU time of this process and of its waited-for children.
func cpu() time.Duration {
	var self, kids syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

// BenchmarkSelfPlay compares the self-play positions per second of the
// quickstart config in one process with a learner and two local workers
// (one thread each) over the embedded server, on the same cores, and the
// share of the CPU time spent encoding, publishing, decoding and
// acknowledging shards. Run it once:
//
//	go test ./train/cluster/ -run XXX -bench SelfPlay -benchtime 1x
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
			c0 := cpu()
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
			busy := l.Busy().Seconds()
			for _, w := range runs[0].Workers {
				busy += w.PublishS
			}
			l.Close()
			total := (cpu() - c0).Seconds()
			st, _, _ := train.ReadState(cfg.Output)
			perGame := float64(st.Positions) / float64(st.Games)
			b.ReportMetric(float64(st.Positions)/wall.Seconds(), "positions/s")
			b.ReportMetric(float64(runs[0].Published)*perGame/wall.Seconds(), "played-positions/s")
			b.ReportMetric(100*busy/total, "%messaging")
			b.ReportMetric(total/wall.Seconds(), "cores")
		}
	})
}
