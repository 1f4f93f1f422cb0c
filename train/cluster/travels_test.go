package cluster

import (
	"context"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
)

// booktest and wraptest are agents the cluster has never heard of, with a
// file parameter and a nested agent of their own: the job publisher and the
// worker must hold them to the rules from what their builders declare.
func init() {
	agents.Register("booktest", "a test agent: book=FILE", func(p *agents.Params, seed uint64) (agents.Agent, error) {
		p.File("book", "")
		return classic.NewRandom(seed), nil
	})
	agents.Register("wraptest", "a test agent: inner=SPEC", func(p *agents.Params, seed uint64) (agents.Agent, error) {
		p.Spec("inner", "random")
		return classic.NewRandom(seed), nil
	})
}

func TestJobsCarryNoLocalFiles(t *testing.T) {
	ctx := context.Background()
	for spec, want := range map[string]string{
		"booktest:book=/etc/passwd":                              "book=/etc/passwd names a file of this machine",
		"tb:file=blob:0123,fallback='booktest:book=/etc/passwd'": "file=blob:0123 names a file",
		"mcts:tb=/tmp/x.tb":                                      "tb=/tmp/x.tb names a file",
		"tb:file=x,fallback='external:cmd=ls'":                   "names a file",
		"external:cmd=ls":                                        "runs a program",
	} {
		// The publisher's side: refused before anything is sent.
		if _, err := sendFiles(ctx, nil, spec, newBlobs()); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("publishing %q: %v, want an error containing %q", spec, err, want)
		}
		// The worker's side: refused before anything is fetched or built.
		if _, err := (&evalPlayers{}).player(ctx, "south", spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("a worker playing %q: %v, want an error containing %q", spec, err, want)
		}
	}
}
