package train

import (
	"path/filepath"
	"strings"
	"testing"
)

// cluster.evaluation without workers is a config error naming the key;
// with them it is accepted.
func TestClusterEvaluationNeedsWorkers(t *testing.T) {
	tiny := filepath.Join("..", "configs", "tiny.yaml")
	_, err := LoadConfig(tiny, []string{"output=" + t.TempDir(), "cluster.evaluation=true"})
	if err == nil || !strings.Contains(err.Error(), "cluster.evaluation") {
		t.Errorf("cluster.evaluation without workers: %v, want an error naming cluster.evaluation", err)
	}
	cfg, err := LoadConfig(tiny, []string{"output=" + t.TempDir(), "cluster.evaluation=true", "cluster.workers=2"})
	if err != nil {
		t.Fatalf("cluster.evaluation with two local workers: %v", err)
	}
	if !cfg.Cluster.Evaluation {
		t.Error("cluster.evaluation=true did not set Cluster.Evaluation")
	}
}
