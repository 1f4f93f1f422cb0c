package agenttest_test

import (
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/agenttest"
	"github.com/urim-rl/urim/env"
)

// fakeSearcher reports whatever search it is given.
type fakeSearcher struct {
	agents.Func
	info agents.SearchInfo
}

func (f fakeSearcher) LastSearch() agents.SearchInfo { return f.info }

// TestCheckActCatchesBadAgents feeds CheckAct agents that break each rule
// and expects an error naming the problem.
func TestCheckActCatchesBadAgents(t *testing.T) {
	g := env.MustGame(env.Urim)
	// South's pit a (action 0) is empty, so 0 is illegal here.
	s, err := g.ParsePosition("0,4,4,4,4,4/3,3,3,3,2,2 0-0 S 3")
	if err != nil {
		t.Fatal(err)
	}
	play := func(a int) agents.Func { return func(*env.State) (int, error) { return a, nil } }
	cases := []struct {
		name  string
		agent agents.Agent
		want  string
	}{
		{"illegal move", play(0), "illegal action"},
		{"out of range", play(9), "illegal action"},
		{"changes input", agents.Func(func(s *env.State) (int, error) { s.Play(1); return 1, nil }), "changed its input"},
		{"PV disagrees", fakeSearcher{play(1), agents.SearchInfo{PV: []int{2}}}, "principal variation starts with"},
		{"PV illegal", fakeSearcher{play(1), agents.SearchInfo{PV: []int{1, 1, 0, 0, 0}}}, "principal variation"},
		{"visits on illegal", fakeSearcher{play(1), agents.SearchInfo{Visits: [env.MaxActions]int{5, 1}}}, "visits for action 0"},
	}
	for _, c := range cases {
		u := s
		_, err := agenttest.CheckAct(c.agent, &u)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: CheckAct error = %v, want one containing %q", c.name, err, c.want)
		}
	}
	if _, err := agenttest.CheckAct(fakeSearcher{play(1), agents.SearchInfo{PV: []int{1, 0}}}, &s); err != nil {
		t.Errorf("a legal move with a legal PV: %v", err)
	}
}

func TestRandomPositionsAreOngoingAndDeterministic(t *testing.T) {
	g := env.MustGame(env.Oware)
	a, b := agenttest.RandomPositions(g, 30, 5), agenttest.RandomPositions(g, 30, 5)
	for i := range a {
		if a[i].Terminal() {
			t.Fatalf("position %d is terminal: %v", i, a[i])
		}
		if a[i].String() != b[i].String() {
			t.Fatalf("position %d differs between two calls with seed 5", i)
		}
	}
}
