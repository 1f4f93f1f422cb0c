package ppo

import (
	"context"
	"github.com/urim-rl/urim/train"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/urim-rl/urim/internal/cputime"
)

// BenchmarkPPOIteration runs PPO iterations of the default config
// (algorithm: ppo and nothing else: 512 games × 64 steps, 4 epochs of
// minibatches of 2048, the default resmlp 3×128 with layer norm, one thread
// per core) without evaluation, and reports end-to-end environment steps
// per second and the shares of the time spent stepping the environment,
// in the rollout's forward passes and in the update, and the process's CPU
// time per iteration.
func BenchmarkPPOIteration(b *testing.B) { benchPPO(b, "") }

// BenchmarkPPOQuickstart is BenchmarkPPOIteration on
// configs/ppo-quickstart.yaml.
func BenchmarkPPOQuickstart(b *testing.B) {
	benchPPO(b, filepath.Join("..", "..", "configs", "ppo-quickstart.yaml"))
}

// BenchmarkPPOQuickstartDataset is BenchmarkPPOQuickstart writing its games
// into dataset.dir: compare its rollout-s/iter with BenchmarkPPOQuickstart's.
func BenchmarkPPOQuickstartDataset(b *testing.B) {
	benchPPO(b, filepath.Join("..", "..", "configs", "ppo-quickstart.yaml"), "dataset.dir="+filepath.Join(b.TempDir(), "data"))
}

func benchPPO(b *testing.B, file string, extra ...string) {
	dir := filepath.Join(b.TempDir(), "run")
	sets := []string{"algorithm=ppo", "output=" + dir, "evaluation.every=0", "stop.time=0", "stop.iterations=" + strconv.Itoa(b.N)}
	sets = append(sets, extra...)
	var cfg train.Config
	var err error
	if file == "" {
		cfg, err = train.ParseConfig(nil, "", sets)
	} else {
		cfg, err = train.LoadConfig(file, sets)
	}
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := processCPU()
	if _, err := train.Run(context.Background(), cfg, train.Options{}); err != nil {
		b.Fatal(err)
	}
	cpu := (processCPU() - cpu0).Seconds()
	b.StopTimer()
	tab, err := train.ReadMetrics(filepath.Join(dir, "metrics.csv"))
	if err != nil {
		b.Fatal(err)
	}
	var steps, env, fwd, upd, total, rollout float64
	for i := range tab.Rows {
		steps += tab.Column("env_steps")[i]
		env += tab.Column("env_s")[i]
		fwd += tab.Column("forward_s")[i]
		upd += tab.Column("update_s")[i]
		total += tab.Column("rollout_s")[i] + tab.Column("update_s")[i]
		rollout += tab.Column("rollout_s")[i]
	}
	b.ReportMetric(steps/total, "env-steps/s")
	b.ReportMetric(100*env/total, "env-%")
	b.ReportMetric(100*fwd/total, "forward-%")
	b.ReportMetric(100*upd/total, "update-%")
	b.ReportMetric(rollout/float64(len(tab.Rows)), "rollout-s/iter")
	// The process's CPU time, which a shared machine inflates less than the
	// wall clock: per iteration (checkpoint and plots included), and the
	// env steps per CPU second (twice that is what two idle cores would
	// reach with perfect parallelism).
	b.ReportMetric(cpu/float64(b.N), "cpu-s/iter")
	b.ReportMetric(steps/cpu, "env-steps/cpu-s")
}

// processCPU returns the process's user and system CPU time (0 where it
// cannot be read).
func processCPU() time.Duration {
	d, _ := cputime.Process()
	return d
}
