package web

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckSpec(t *testing.T) {
	_, ts := newTestServer(t, Config{MaxSims: 500})
	for _, c := range []struct {
		spec string
		code int
		want string
	}{
		{"mcts:sims=100", 200, `"searches":true`},
		{"greedy", 200, `"searches":false`},
		{"nosuchagent", 400, "nosuchagent"},
		{"mcts:sims=999999", 403, "sims"},
		{"mcts:bogus=1", 400, "bogus"},
		{"az:ckpt=/etc/passwd", 403, "outside"},
		// A file named as the page shows it, by its served root.
		{"alphabeta:depth=2,tb=tablebase0", 200, `"spec":"alphabeta:`},
		{"alphabeta:depth=2,tb=data0/none.tb", 404, "not found"},
	} {
		code, body := call(t, ts, "POST", "/api/check", checkRequest{Spec: c.spec}, nil)
		if code != c.code || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d %s, want %d with %q", c.spec, code, body, c.code, c.want)
		}
	}
}

// An analysis by an agent that does not search is refused, rather than
// answered with a value of 0.
func TestAnalyseRefusesNonSearcher(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	for _, spec := range []string{"random", "greedy"} {
		code, body := call(t, ts, "POST", "/api/analyse", analyseRequest{Game: gameRequest{Moves: startMoves}, Spec: spec}, nil)
		if code != 400 || !strings.Contains(body, "does not search") {
			t.Errorf("%s: %d %s", spec, code, body)
		}
	}
}

// A path the page does not have gets a page that says so, not a bare 404.
func TestNotFoundPage(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	code, body := call(t, ts, "GET", "/no/such/page", nil, nil)
	if code != 404 || !strings.Contains(body, `href="/"`) || !strings.Contains(body, "Not found") {
		t.Fatalf("%d %s", code, body)
	}
	if code, body := call(t, ts, "GET", "/?south=greedy", nil, nil); code != 200 || !strings.Contains(body, "app.js") {
		t.Fatalf("the page with a query: %d %.80s", code, body)
	}
}

// A record keeps its variations and single analyses, and refuses one that
// does not replay.
func TestRecordVariations(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	q := recordRequest{Game: gameRequest{Rules: "urim", Moves: startMoves}, Players: [2]string{"a", "b"},
		Specs: [2]string{"human", "human"}, Variations: [][]int{{2, 4}, {1}},
		Singles: []SingleAnalysis{{Moves: []int{2, 4}, Spec: "mcts:sims=10", Unit: "value"}}}
	var rec Record
	if code, body := call(t, ts, "POST", "/api/record", q, &rec); code != 200 {
		t.Fatal(code, body)
	}
	var l loaded
	if code, body := call(t, ts, "POST", "/api/record/load", rec, &l); code != 200 {
		t.Fatal(code, body)
	}
	if len(l.Record.Variations) != 2 || len(l.Record.Singles) != 1 || l.Record.Singles[0].Spec != "mcts:sims=10" {
		t.Fatalf("loaded %+v", l.Record)
	}
	rec.Variations = append(rec.Variations, []int{2, 9})
	if code, body := call(t, ts, "POST", "/api/record/load", rec, nil); code != 400 || !strings.Contains(body, "variation 2") {
		t.Fatalf("a variation that does not replay: %d %s", code, body)
	}
}

// The networks to play are listed by their served names, a run's best among
// them, and the run page names it.
func TestNetworks(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	var n struct{ Networks []string }
	if code, body := call(t, ts, "GET", "/api/networks", nil, &n); code != 200 || !contains(n.Networks, "runs0/run1/"+runBest) {
		t.Fatalf("%d %s", code, body)
	}
	var v runView
	if code, body := call(t, ts, "GET", "/api/run?run=runs0/run1", nil, &v); code != 200 || v.Best != "runs0/run1/"+runBest {
		t.Fatalf("%d %s", code, body)
	}
	// The shipped networks under --models, by the names the specs take.
	_, ts = newTestServer(t, Config{Models: PathList{filepath.Join("..", "models")}})
	if code, body := call(t, ts, "GET", "/api/networks", nil, &n); code != 200 || !contains(n.Networks, "models0/urim-az.ckpt") {
		t.Fatalf("%d %s", code, body)
	}
	if code, body := call(t, ts, "POST", "/api/check", checkRequest{Spec: "az:ckpt=models0/urim-az.ckpt,sims=10"}, nil); code != 200 {
		t.Fatalf("the listed name refused: %d %s", code, body)
	}
}
