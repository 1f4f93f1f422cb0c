package web

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
)

// Agents the server has never heard of, registered by this test: one that
// reads a book file, one that reads one by default, one with a budget of its
// own. The server's policy must hold them to its rules from what their
// builders declare, not from parameter names it knows.
func init() {
	agents.Register("booktest", "a test agent: book=FILE", func(p *agents.Params, seed uint64) (agents.Agent, error) {
		p.File("book", "")
		return classic.NewRandom(seed), nil
	})
	agents.Register("bookdefault", "a test agent reading /etc/passwd unless told", func(p *agents.Params, seed uint64) (agents.Agent, error) {
		p.File("book", "/etc/passwd")
		return classic.NewRandom(seed), nil
	})
	agents.Register("playouttest", "a test agent: playouts=N", func(p *agents.Params, seed uint64) (agents.Agent, error) {
		p.Budget("playouts", 10, 1, 1<<20)
		return classic.NewRandom(seed), nil
	})
}

func TestPolicyHoldsNewAgents(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	inside := filepath.Join(testFixture(t).data, "book.bin")
	for spec, want := range map[string]string{
		"booktest:book=/etc/passwd": "outside",
		"tb:file=" + testFixture(t).tb + ",fallback='booktest:book=/etc/passwd'": "book=/etc/passwd",
		"bookdefault":               "by default",
		"playouttest:playouts=1000": "no cap",
	} {
		if _, err := s.policy.check(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("check(%q) = %v, want a refusal containing %q", spec, err, want)
		}
	}
	// Inside the served data the book is resolved like a checkpoint.
	if _, err := s.policy.check("booktest:book=" + inside); err != nil && strings.Contains(err.Error(), "outside") {
		t.Errorf("a book inside the served data refused as outside: %v", err)
	}
	if got, err := s.policy.check("playouttest"); err != nil || got != "playouttest" {
		t.Errorf("the default budget: %q, %v; want it accepted", got, err)
	}
}
