package experiment

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/urim-rl/urim/internal/progress"
)

// TestReportSeedsWording: the report says "one seed per cell", never
// "1 seeds", and counts several.
func TestReportSeedsWording(t *testing.T) {
	for seeds, want := range map[int]string{1: "; one seed per cell;", 3: "; 3 seeds per cell;"} {
		p := &Plan{Base: "base.yaml", Seeds: seeds, Budget: "1m", Panel: []string{"random"}, Games: 2, RateSims: 8}
		got := string(report(p, nil, nil))
		if !strings.Contains(got, want) || strings.Contains(got, "1 seeds") {
			t.Errorf("%d seeds: the report lacks %q:\n%s", seeds, want, got)
		}
	}
}

// TestSweepReportsRunProgress: while a run trains, the sweep reports its
// iterations against its stop (read from the run's state), not nothing.
func TestSweepReportsRunProgress(t *testing.T) {
	var out bytes.Buffer
	c := tinySweep(t.TempDir(), 1)
	c.Grid = c.Grid[:0]
	c.Sets = []string{"stop.iterations=2", "evaluation.every=0"}
	c.Progress = progress.Bars(&out)
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "sweep runs/base/seed-1 iter 2: 2/2 iterations") {
		t.Errorf("no progress of the run:\n%q", out.String())
	}
}
