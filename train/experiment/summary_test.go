package experiment

import (
	"strings"
	"testing"
)

// TestReportSeedsWording: the report says "one seed per cell", never
// "1 seeds", and counts several.
func TestReportSeedsWording(t *testing.T) {
	for seeds, want := range map[int]string{1: "; one seed per cell;", 3: "; 3 seeds per cell;"} {
		p := &Plan{Base: "base.yaml", Seeds: seeds, Budget: "1m", Panel: []string{"random"}, Games: 2, RateSims: 8}
		got := string(report(p, nil))
		if !strings.Contains(got, want) || strings.Contains(got, "1 seeds") {
			t.Errorf("%d seeds: the report lacks %q:\n%s", seeds, want, got)
		}
	}
}
