package agents_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/urim-rl/urim/agents"
)

// TestInspect: the files, programs, nested agents and budgets of a spec, as
// the builders declare them, whatever the agent.
func TestInspect(t *testing.T) {
	in, err := agents.Inspect("tb:file=x.tb,fallback='mcts:tb=y.tb,sims=5,time=2s'")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in.Files, map[string]string{"file": "x.tb"}) {
		t.Errorf("tb files %v, want file=x.tb", in.Files)
	}
	fb := in.Specs["fallback"]
	if fb == nil || fb.Name != "mcts" || fb.Files["tb"] != "y.tb" {
		t.Fatalf("fallback inspected as %+v, want mcts reading y.tb", fb)
	}
	if b := fb.Budgets["sims"]; b.Value != 5 || !b.Given || b.Time {
		t.Errorf("fallback sims budget %+v, want 5, given", b)
	}
	if b := fb.Budgets["time"]; b.Value != int64(2*time.Second) || !b.Time {
		t.Errorf("fallback time budget %+v, want 2s", b)
	}
	if b := fb.Budgets["threads"]; b.Value != 1 || b.Given {
		t.Errorf("fallback threads budget %+v, want the default 1", b)
	}
	if got := in.AllFiles(); !reflect.DeepEqual(got, []string{"x.tb", "y.tb"}) {
		t.Errorf("AllFiles %v", got)
	}
	if in.RunsPrograms() {
		t.Error("tb with an mcts fallback runs a program")
	}
	// A program, nested: seen.
	in, err = agents.Inspect("tb:file=x.tb,fallback='external:cmd=prog --flag'")
	if err != nil {
		t.Fatal(err)
	}
	if !in.RunsPrograms() || in.Specs["fallback"].Programs["cmd"] != "prog --flag" {
		t.Errorf("a nested external engine not seen: %+v", in.Specs["fallback"])
	}
	// The default fallback is inspected too.
	in, err = agents.Inspect("tb:file=x.tb")
	if err != nil {
		t.Fatal(err)
	}
	if fb := in.Specs["fallback"]; fb == nil || fb.Name != "alphabeta" {
		t.Errorf("default fallback inspected as %+v, want alphabeta", fb)
	}
	// Bad values are Validate's business; unknown names are errors.
	if _, err := agents.Inspect("mcts:sims=-3"); err != nil {
		t.Errorf("a bad value: %v, want no error from Inspect", err)
	}
	for spec, want := range map[string]string{
		"mcts:book=x":            "unknown parameter book",
		"nosuch":                 `unknown agent "nosuch"`,
		"tb:file=x,fallback=foo": `unknown agent "foo"`,
	} {
		if _, err := agents.Inspect(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Inspect(%q) = %v, want an error containing %q", spec, err, want)
		}
	}
}
