package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrainScoreWeight: `urim train` with training.score_weight runs end to
// end (and resumes): its network has the score head, metrics.csv the
// loss_score column, and `urim nn info` says so; the key is checked; `urim
// nn new --score` writes such a network, which plays.
func TestTrainScoreWeight(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, out, errs := urim(t, "", "train", "--config", "../../configs/tiny.yaml", "--set", "output="+dir,
		"--set", "stop.iterations=1", "--set", "training.score_weight=0.25")
	if code != 0 || !strings.Contains(out, "1 iteration;") || !strings.Contains(errs, "+score network") || !strings.Contains(errs, " score ") {
		t.Fatalf("train: status %d\n%s\n%s", code, out, errs)
	}
	if code, out, errs = urim(t, "", "train", "--resume", dir, "--set", "stop.iterations=2"); code != 0 || !strings.Contains(out, "2 iterations") {
		t.Fatalf("resume: status %d\n%s\n%s", code, out, errs)
	}
	metrics, err := os.ReadFile(filepath.Join(dir, "metrics.csv"))
	if err != nil || !strings.Contains(strings.SplitN(string(metrics), "\n", 2)[0], ",loss_score") {
		t.Errorf("metrics.csv has no loss_score column (%v):\n%s", err, metrics)
	}
	ckpt := filepath.Join(dir, "checkpoints", "latest.ckpt")
	if code, out, errs = urim(t, "", "nn", "info", ckpt); code != 0 || !strings.Contains(out, "mlp 1x16+score") ||
		!strings.Contains(out, "policy, value, score") || !strings.Contains(out, "score.w [16 1]") {
		t.Errorf("nn info: status %d\n%s\n%s", code, out, errs)
	}
	if code, out, errs = urim(t, "", "match", "--rules", "urim4", "--max-plies", "60", "--games", "2", "az:ckpt="+ckpt+",sims=8", "random"); code != 0 {
		t.Errorf("the run's network does not play: status %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = urim(t, "", "config", "check", "--set", "training.score_weight=-1", "../../configs/tiny.yaml")
	if code != 1 || !strings.Contains(errs, "training.score_weight=-1: -1 is out of range") {
		t.Errorf("a negative weight: status %d, stderr %q", code, errs)
	}
	net := filepath.Join(t.TempDir(), "s.ckpt")
	if code, out, errs = urim(t, "", "nn", "new", "--width", "8", "--depth", "1", "--score", "--out", net); code != 0 || !strings.Contains(out, "+score") {
		t.Fatalf("nn new --score: status %d\n%s\n%s", code, out, errs)
	}
	plain := filepath.Join(t.TempDir(), "p.ckpt")
	if code, out, errs = urim(t, "", "nn", "new", "--width", "8", "--depth", "1", "--out", plain); code != 0 {
		t.Fatalf("nn new: status %d\n%s\n%s", code, out, errs)
	}
	if code, out, _ = urim(t, "", "nn", "info", plain); code != 0 || !strings.Contains(out, "no score head") {
		t.Errorf("nn info of a network without the head:\n%s", out)
	}
}
