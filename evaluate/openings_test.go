package evaluate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpeningsAgainstMaxPlies: random openings as long as the ply cap
// (preset rules with max_plies, or a rules file) are refused with an error
// naming opening_plies and max_plies, where the first game used to panic.
func TestOpeningsAgainstMaxPlies(t *testing.T) {
	rules := filepath.Join(t.TempDir(), "short.yaml")
	os.WriteFile(rules, []byte("preset: urim\nname: short\nmax_plies: 4\n"), 0o644)
	for _, s := range []Setup{
		{Rules: "urim", MaxPlies: 4, OpeningPlies: 4},
		{Rules: rules, OpeningPlies: 4},
		{Rules: rules, OpeningPlies: 6},
	} {
		s.Seed, s.Workers = 1, 1
		cfg := Config{Agents: players("random", "greedy"), Games: 2, Setup: s}
		_, err := RunTournament(context.Background(), cfg)
		if err == nil || !strings.Contains(err.Error(), "opening_plies") || !strings.Contains(err.Error(), "max_plies 4") {
			t.Errorf("%+v: %v, want opening_plies refused against max_plies", s, err)
		}
		_, err = RunSPRT(context.Background(), SPRTConfig{Setup: s, A: Player{Spec: "random"}, B: Player{Spec: "greedy"}, Test: SPRT{Elo1: 50}})
		if err == nil || !strings.Contains(err.Error(), "opening_plies") {
			t.Errorf("SPRT %+v: %v, want opening_plies refused", s, err)
		}
	}
}
