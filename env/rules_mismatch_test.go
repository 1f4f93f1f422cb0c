package env

import (
	"strings"
	"testing"
)

// TestRulesMismatch: rules that differ only in max_plies are described by
// their name once and the two caps (the message used to print "urim (…),
// not urim (…)"); rules of other names are described in full.
func TestRulesMismatch(t *testing.T) {
	a, b := Urim, Urim
	a.MaxPlies, b.MaxPlies = 200, 100
	got := a.Mismatch(b)
	if got != "urim with max_plies 200, not 100" || strings.Count(got, "urim") != 1 {
		t.Errorf("max_plies only: %q", got)
	}
	if got := Urim.Mismatch(Oware); !strings.Contains(got, "urim (") || !strings.Contains(got, "not oware (") || !strings.Contains(got, "seeds_per_pit 3, not 4") {
		t.Errorf("urim against oware: %q", got)
	}
	if got := Urim.Mismatch(Urim); got != "" {
		t.Errorf("the same rules: %q", got)
	}
}
