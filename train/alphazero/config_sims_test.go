package alphazero

import (
	"strconv"
	"strings"
	"testing"

	"github.com/urim-rl/urim/train"
)

// TestSimsSchedule: search.sims decodes as a number or either schedule,
// gives each iteration its count, survives the round trip through the run's
// config.yaml, and bad schedules name the file, line and key.
func TestSimsSchedule(t *testing.T) {
	cases := []struct {
		yaml string
		its  int
		want []int // iterations 1, 2, ...
	}{
		{"search: {sims: 64}\n", 3, []int{64, 64, 64}},
		{"search:\n  sims: {steps: {1: 16, 3: 32, 5: 64}}\n", 6, []int{16, 16, 32, 32, 64, 64}},
		{"search:\n  sims: {steps: {3: 32}}\n", 4, []int{32, 32, 32, 32}},
		{"search:\n  sims: {from: 16, to: 64}\n", 5, []int{16, 28, 40, 52, 64}},
	}
	for _, c := range cases {
		cfg, err := train.ParseConfig([]byte(c.yaml+"stop: {iterations: "+itoa(c.its)+"}\n"), "s.yaml", nil)
		if err != nil {
			t.Fatalf("%q: %v", c.yaml, err)
		}
		for i, w := range c.want {
			if got := SearchSection.Of(&cfg).Sims.At(i+1, c.its); got != w {
				t.Errorf("%q: iteration %d: %d simulations, want %d", c.yaml, i+1, got, w)
			}
		}
		out, err := cfg.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		again, err := train.ParseConfig(out, "again.yaml", nil)
		if err != nil {
			t.Fatalf("%q: the written config does not read back: %v\n%s", c.yaml, err, out)
		}
		if SearchSection.Of(&again).Sims.String() != SearchSection.Of(&cfg).Sims.String() {
			t.Errorf("%q: read back as %v, want %v", c.yaml, SearchSection.Of(&again).Sims, SearchSection.Of(&cfg).Sims)
		}
	}
	bad := []struct{ yaml, want string }{
		{"search:\n  sims: {steps: {1: 16, 4: 0}}\n", "s.yaml:2: search.sims.steps.4: 0 is out of range"},
		{"search:\n  sims: {steps: {0: 16}}\n", "s.yaml:2: search.sims.steps: iteration 0"},
		{"search:\n  sims: {from: 16, to: 64, steps: {1: 3}}\n", "s.yaml:2: search.sims: both steps and from/to"},
		{"search:\n  sims: {from: 16}\n", "search.sims.to: 0 is out of range"},
		{"search:\n  sims: {form: 16}\n", "s.yaml:2: search.sims.form: unknown key"},
		{"search:\n  sims: [16, 32]\n", "s.yaml:2: search.sims: want a mapping"},
		{"search:\n  sims: {from: 16, to: 64}\nstop: {iterations: 0, time: 1m}\n", "stop.iterations, which is 0"},
	}
	for _, b := range bad {
		_, err := train.ParseConfig([]byte(b.yaml), "s.yaml", nil)
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%q: error %v, want it to contain %q", b.yaml, err, b.want)
		}
	}
	if _, err := train.ParseConfig(nil, "", []string{"search.sims={from: 8, to: 32}"}); err != nil {
		t.Errorf("--set with a schedule: %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
