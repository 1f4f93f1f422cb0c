package train

import (
	"strings"
	"testing"
)

// TestOpeningsAgainstMaxPlies: openings as long as the ply cap are refused
// by Validate, naming the key and both numbers (they used to panic in the
// first self-play game or evaluation).
func TestOpeningsAgainstMaxPlies(t *testing.T) {
	for _, c := range []struct {
		sets []string
		key  string
	}{
		{[]string{"max_plies=1"}, "selfplay.opening_plies"},
		{[]string{"max_plies=2"}, "selfplay.opening_plies"},
		{[]string{"max_plies=2", "selfplay.opening_plies=0"}, "evaluation.opening_plies"},
		{[]string{"max_plies=2", "ppo.opening_plies=2", "evaluation.opening_plies=0"}, "ppo.opening_plies"},
	} {
		file := "../configs/tiny.yaml"
		if strings.HasPrefix(c.key, "ppo.") {
			file = "../configs/ppo-tiny.yaml"
		}
		_, err := LoadConfig(file, append(c.sets, "output="+t.TempDir(), "evaluation.every=1"))
		if err == nil || !strings.Contains(err.Error(), c.key) || !strings.Contains(err.Error(), "max_plies") {
			t.Errorf("%v: %v, want %s refused against max_plies", c.sets, err, c.key)
		}
	}
	if _, err := LoadConfig("../configs/tiny.yaml", []string{"max_plies=4", "selfplay.opening_plies=3", "evaluation.opening_plies=3", "output=" + t.TempDir()}); err != nil {
		t.Errorf("openings one ply short of the cap: %v", err)
	}
}
