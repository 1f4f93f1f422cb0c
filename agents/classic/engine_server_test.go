package classic_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/agenttest"
	"github.com/urim-rl/urim/agents/classic"
)

func serve(t *testing.T, spec, script string) []string {
	t.Helper()
	var out strings.Builder
	if err := classic.Serve(strings.NewReader(script), &out, spec, 0); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(out.String()), "\n")
}

func TestServeSession(t *testing.T) {
	script := `urim 1
# comments and blank lines get no reply

rules urim
newgame seed=5
moves 2 3
show
legal
legal now
go
position 3,3,3,3,3,3/3,3,3,3,3,3 0-0 S 0
go
moves 0 0 0
frobnicate
go nosuch=1
rules urim9
position 1,2/3 0-0 S 0
newgame seed=x
quit
go
`
	got := serve(t, "random", script)
	want := []string{
		"ok urim 1 random",
		"ok",
		"ok",
		`ok {"game":0,"ply":2,"player":0,"action":3,"pits":[4,3,0,4,4,4,3,3,3,0,4,4],"stores":[0,0],"legal":[0,1,3,4,5],"terminal":false}`,
		"ok 4,3,0,4,4,4/3,3,3,0,4,4 0-0 S 2 h:3,3,3,3,3,3/3,3,3,3,3,3:2.3",
		"ok 0 1 3 4 5",
		`error legal takes no arguments, got "now"`,
		"bestmove *",
		`ok {"game":0,"ply":0,"player":0,"pits":[3,3,3,3,3,3,3,3,3,3,3,3],"stores":[0,0],"legal":[0,1,2,3,4,5],"terminal":false}`,
		"bestmove *",
		"error moves: move 3: env: illegal action 0: its pit is empty *",
		`error unknown command "frobnicate" *`,
		`error go: agents: bad spec "random:nosuch=1": unknown parameter nosuch *`,
		`error env: unknown rules preset "urim9" *`,
		`error env: bad position *`,
		`error newgame: seed "x" is not a whole number from 0 to 18446744073709551615`,
		"ok bye",
	}
	if len(got) != len(want) {
		t.Fatalf("%d replies, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		w, prefix := strings.CutSuffix(want[i], "*")
		if got[i] != want[i] && !(prefix && strings.HasPrefix(got[i], w)) {
			t.Errorf("reply %d: %q, want %q", i+1, got[i], want[i])
		}
	}
}

// TestServeReproducible checks that a game seed fixes the agent's choices,
// and that go options rebuild the agent with other parameters.
func TestServeReproducible(t *testing.T) {
	script := "urim 1\nnewgame seed=9\ngo\ngo\ngo\nnewgame seed=9\ngo\ngo\ngo\n"
	got := serve(t, "random", script)
	if !reflect.DeepEqual(got[2:5], got[6:9]) {
		t.Errorf("seed 9 gave %v then %v", got[2:5], got[6:9])
	}
	if err := classic.Serve(strings.NewReader(""), os.Stdout, "nosuch", 0); err == nil {
		t.Errorf("an unknown agent was served")
	}
	got = serve(t, "random", "urim 2\n")
	if !strings.HasPrefix(got[0], "error protocol version") {
		t.Errorf("version 2: %q", got[0])
	}
}

func TestServeGoOptions(t *testing.T) {
	if err := agents.Validate("alphabeta:depth=2"); err != nil {
		t.Skip("alphabeta is not registered:", err)
	}
	got := serve(t, "alphabeta:depth=2", "urim 1\ngo depth=3 time=50\ngo depth=99\n")
	if !strings.HasPrefix(got[1], "bestmove ") || !strings.Contains(got[1], "depth=") {
		t.Errorf("go depth=3: %q", got[1])
	}
	if !strings.HasPrefix(got[2], "error go: ") || !strings.Contains(got[2], "depth") {
		t.Errorf("go depth=99: %q", got[2])
	}
}

// TestExternalConformance runs the agents' conformance suite on an external
// engine: the test binary serving a random agent.
func TestExternalConformance(t *testing.T) {
	defer classic.CloseExternalEngines()
	spec := "external:cmd='" + os.Args[0] + " urim-test-engine serve:random',timeout=20s"
	agenttest.RunWith(t, spec, agenttest.Options{Positions: 20, Games: 1})
}
