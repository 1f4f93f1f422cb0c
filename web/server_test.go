package web

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urim-rl/urim/env"
)

// startMoves is a game's opening used by several tests.
var startMoves = []int{2, 3, 0, 5}

func TestStaticPage(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	for path, want := range map[string]string{"/": `src="app.js"`, "/app.js": "function render", "/style.css": ".board"} {
		code, body := call(t, ts, "GET", path, nil, nil)
		if code != 200 || !strings.Contains(body, want) {
			t.Errorf("GET %s: %d, body without %q", path, code, want)
		}
	}
	if code, _ := call(t, ts, "GET", "/nothing-here.js", nil, nil); code != 404 {
		t.Errorf("GET of a missing file: %d", code)
	}
}

func TestInfo(t *testing.T) {
	_, ts := newTestServer(t, Config{MaxSims: 500})
	var info struct {
		Presets []string
		Agents  []agentInfo
		Limits  map[string]any
		Table   map[string]any `json:"tablebase"`
	}
	if code, body := call(t, ts, "GET", "/api/info", nil, &info); code != 200 {
		t.Fatal(code, body)
	}
	if !contains(info.Presets, "urim") || len(info.Agents) < 5 || info.Limits["max_sims"] != float64(500) {
		t.Fatalf("info %+v", info)
	}
	if info.Table["seeds"] != float64(tableSeeds) {
		t.Fatalf("tablebase %v", info.Table)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestGame(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	var v gameView
	code, body := call(t, ts, "POST", "/api/game", gameRequest{Rules: "urim", Moves: startMoves}, &v)
	if code != 200 {
		t.Fatal(code, body)
	}
	if len(v.Positions) != len(startMoves)+1 || v.Positions[1].Trace == nil || len(v.Positions[1].Trace.Path) != 3 || !v.Preset {
		t.Fatalf("view %+v", v)
	}
	// The view's notation reads back as the same position.
	g := env.MustGame(env.Urim)
	s := g.Start()
	for _, a := range startMoves {
		s.Play(a)
	}
	if v.Positions[len(startMoves)].Notation != s.String() {
		t.Fatalf("notation %q, want %q", v.Positions[len(startMoves)].Notation, s.String())
	}
	// A start position in the notation, a rules file inside the served
	// paths, uploaded rules.
	for _, q := range []gameRequest{
		{Rules: "urim", Start: "0,0,0,0,1,1/1,0,0,0,0,2 15-16 S 40", Moves: []int{5}},
		{Rules: "data0/urim5.yaml", Moves: []int{0}},
		{RulesYAML: "preset: urim\nname: mine\nseeds_per_pit: 4\n", Moves: []int{0}},
		{CustomRules: &env.Urim7, Moves: []int{6}},
	} {
		if code, body := call(t, ts, "POST", "/api/game", q, &v); code != 200 {
			t.Errorf("%+v: %d %s", q, code, body)
		}
	}
	if v.Rules.PitsPerRow != 7 {
		t.Errorf("custom rules: %+v", v.Rules)
	}
	for _, tc := range []struct {
		name string
		body any
		code int
		want string
	}{
		{"not JSON", "{", 400, "bad request body"},
		{"unknown field", `{"rulez":"urim"}`, 400, "unknown field"},
		{"unknown preset", gameRequest{Rules: "chess"}, 400, "unknown rules preset"},
		{"bad position", gameRequest{Start: "3,3,3/3,3,3 0-0 S 0"}, 400, "bad position"},
		{"illegal move", gameRequest{Moves: []int{0, 9}}, 400, "move 1"},
		{"bad uploaded rules", gameRequest{RulesYAML: "preset: urim\npits_per_row: 40\n"}, 400, "rules"},
		{"rules file outside", gameRequest{Rules: "data0/../x.yaml"}, 403, "outside"},
		{"rules file of no root", gameRequest{Rules: "/etc/x.yaml"}, 403, "outside"},
		{"too many moves", gameRequest{Moves: make([]int, maxMoves+1)}, 400, "at most"},
	} {
		code, body := call(t, ts, "POST", "/api/game", tc.body, nil)
		if code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %s, want %d and %q", tc.name, code, body, tc.code, tc.want)
		}
	}
}

func TestMove(t *testing.T) {
	s, ts := newTestServer(t, Config{MaxSims: 1000, MaxDepth: 8, MaxTime: time.Second})
	before := s.searches.Load()
	var res struct {
		Action   int
		Spec     string
		Analysis PlyAnalysis
	}
	for _, spec := range []string{"random", "greedy", "mcts:sims=200", "alphabeta:depth=6", "tb:file=" + testFixture(t).tb} {
		code, body := call(t, ts, "POST", "/api/move", moveRequest{Game: gameRequest{Moves: startMoves}, Spec: spec, Seed: 3}, &res)
		if code != 200 {
			t.Fatalf("%s: %d %s", spec, code, body)
		}
		g := env.MustGame(env.Urim)
		st := g.Start()
		for _, a := range startMoves {
			st.Play(a)
		}
		if !st.Legal().Has(res.Action) {
			t.Fatalf("%s: illegal answer %d", spec, res.Action)
		}
	}
	if s.searches.Load() != before+5 {
		t.Errorf("searches %d, want %d", s.searches.Load(), before+5)
	}
	over := gameRequest{Start: "0,0,0,0,0,1/0,0,0,0,0,0 17-18 S 40", Moves: []int{5}}
	for _, tc := range []struct {
		name string
		q    moveRequest
		code int
		want string
	}{
		{"unknown agent", moveRequest{Spec: "stockfish"}, 400, "unknown agent"},
		{"bad parameter", moveRequest{Spec: "mcts:simz=10"}, 400, "simz"},
		{"external engine", moveRequest{Spec: "external:cmd='urim engine random'"}, 403, "allow-external"},
		{"external fallback", moveRequest{Spec: "tb:file=" + testFixture(t).tb + ",fallback='external:cmd=ls'"}, 403, "allow-external"},
		{"sims over the cap", moveRequest{Spec: "mcts:sims=5000"}, 403, "cap of 1000"},
		{"depth over the cap", moveRequest{Spec: "alphabeta:depth=12"}, 403, "cap of 8"},
		{"time over the cap", moveRequest{Spec: "mcts:sims=0,time=1m"}, 403, "cap of 1s"},
		{"threads over the cap", moveRequest{Spec: "mcts:threads=64"}, 403, "threads"},
		{"checkpoint outside", moveRequest{Spec: "az:ckpt=/etc/passwd"}, 403, "outside"},
		{"checkpoint missing", moveRequest{Spec: "az:ckpt=" + filepath.Join(testFixture(t).data, "none.ckpt")}, 404, "not found"},
		{"game over", moveRequest{Game: over, Spec: "random"}, 400, "game is over"},
	} {
		code, body := call(t, ts, "POST", "/api/move", tc.q, nil)
		if code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %s, want %d and %q", tc.name, code, body, tc.code, tc.want)
		}
	}
}

func TestMoveExternalAllowed(t *testing.T) {
	s, _ := newTestServer(t, Config{AllowExternal: true})
	if _, err := s.policy.check("external:cmd='urim engine random'"); err != nil {
		t.Fatalf("external refused with --allow-external: %v", err)
	}
}

func TestSymlinkOut(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	f := testFixture(t)
	for _, path := range []string{"/api/games?source=data0/escape/secret.jsonl", "/api/game?source=data0/escape/secret.jsonl&n=0"} {
		code, body := call(t, ts, "GET", path, nil, nil)
		if code != 403 || !strings.Contains(body, "symlink") {
			t.Errorf("%s: %d %s", path, code, body)
		}
	}
	code, body := call(t, ts, "POST", "/api/move", moveRequest{Spec: "tb:file=" + filepath.Join(f.data, "escape", "secret.jsonl")}, nil)
	if code != 403 {
		t.Errorf("a spec's file through a symlink out: %d %s", code, body)
	}
	var src struct{ Games []source }
	call(t, ts, "GET", "/api/sources", nil, &src)
	for _, s := range src.Games {
		if strings.Contains(s.Ref, "escape") {
			t.Errorf("listed a source through a symlink out: %s", s.Ref)
		}
	}
}

func TestAnalyse(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	var res struct {
		Unit     string
		Analysis PlyAnalysis
	}
	code, body := call(t, ts, "POST", "/api/analyse", analyseRequest{Game: gameRequest{Moves: startMoves}, Ply: 2, Spec: "mcts:sims=400"}, &res)
	if code != 200 {
		t.Fatal(code, body)
	}
	a := res.Analysis
	if a.Ply != 2 || a.Best == nil || len(a.PV) == 0 || a.PV[0] != *a.Best || len(a.Visits) != 6 || res.Unit != "value" || a.Played == nil || *a.Played != 0 {
		t.Fatalf("analysis %+v", a)
	}
	sum := 0
	for _, v := range a.Visits {
		sum += v
	}
	if sum < 390 || a.Value < -1 || a.Value > 1 {
		t.Fatalf("visits %v (sum %d), value %v", a.Visits, sum, a.Value)
	}
	// Alpha-beta reports seeds; the table covers a small endgame, and its
	// best moves come from the table's own report.
	end := gameRequest{Start: "0,0,1,0,2,1/1,0,0,2,0,1 15-13 S 40"}
	code, body = call(t, ts, "POST", "/api/analyse", analyseRequest{Game: end, Spec: "alphabeta:depth=8"}, &res)
	if code != 200 || res.Unit != "seeds" || res.Analysis.Table == nil || len(res.Analysis.Table.Best) == 0 {
		t.Fatalf("%d %s", code, body)
	}
	want, err := testTable(t).ProbePosition(end.Start)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Analysis.Table; got.Lower != want.Lower || got.Upper != want.Upper || len(got.Best) != len(want.Best) || got.Best[0] != want.Best[0] {
		t.Fatalf("table %+v, want %+v", got, want)
	}
	// The table alone (no spec) costs no search.
	res.Analysis = PlyAnalysis{}
	code, body = call(t, ts, "POST", "/api/analyse", analyseRequest{Game: end}, &res)
	if code != 200 || res.Analysis.Best != nil || res.Analysis.Table == nil {
		t.Fatalf("table only: %d %s", code, body)
	}
	for _, tc := range []struct {
		name string
		q    analyseRequest
		want string
	}{
		{"ply out of range", analyseRequest{Game: gameRequest{Moves: startMoves}, Ply: 9, Spec: "random"}, "plies 0 to 4"},
		{"negative ply", analyseRequest{Ply: -1, Spec: "random"}, "ply -1"},
		{"bad game", analyseRequest{Game: gameRequest{Moves: []int{7}}, Spec: "random"}, "move 0"},
	} {
		code, body := call(t, ts, "POST", "/api/analyse", tc.q, nil)
		if code != 400 || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %s", tc.name, code, body)
		}
	}
}

// gameAnalysisLines runs a whole-game analysis and returns its lines.
func gameAnalysisLines(t *testing.T, url string, q moveRequest) []gameAnalysisLine {
	t.Helper()
	data, _ := json.Marshal(q)
	res, err := http.Post(url+"/api/analyse-game", "application/json", strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("game analysis: %s", res.Status)
	}
	var out []gameAnalysisLine
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var l gameAnalysisLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

// playedGame is a whole game between two agents, for whole-game analyses.
func playedGame(t *testing.T, ts string) gameRequest {
	t.Helper()
	f := testFixture(t)
	recs, err := readStoreForTest(filepath.Join(f.data, "tourney", "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return gameRequest{Rules: "urim", Moves: recs[0].Moves}
}

func TestGameAnalysis(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	q := playedGame(t, ts.URL)
	lines := gameAnalysisLines(t, ts.URL, moveRequest{Game: q, Spec: "mcts:sims=100", Seed: 1})
	n := len(q.Moves) + 1
	if len(lines) != n+1 {
		t.Fatalf("%d lines for %d positions", len(lines), n)
	}
	for i, l := range lines[:n] {
		if l.Done != i+1 || l.Total != n || l.Ply == nil || l.Ply.Ply != i {
			t.Fatalf("line %d: %+v", i, l)
		}
	}
	a := lines[n].Analysis
	if a == nil || len(a.Plies) != n || a.Spec != "mcts:sims=100" || a.Budget["sims"] != "100" || a.Worst == nil {
		t.Fatalf("final line %+v", lines[n])
	}
	if len(a.Worst) > 3 {
		t.Fatalf("worst %v", a.Worst)
	}
	for _, w := range a.Worst {
		if l := a.Plies[w].Loss; l == nil || *l < worstThreshold {
			t.Fatalf("worst move %d with loss %v", w, l)
		}
	}
	last := a.Plies[n-1]
	if last.Best != nil || (last.Norm != 1 && last.Norm != -1 && last.Norm != 0 && last.Norm != 1.0/3 && last.Norm != -1.0/3) {
		// The final position is valued by its result.
		t.Logf("final position %+v", last)
	}
	code, body := call(t, ts, "POST", "/api/analyse-game", moveRequest{Game: q, Spec: "random"}, nil)
	if code != 400 || !strings.Contains(body, "does not search") {
		t.Fatalf("game analysis with random: %d %s", code, body)
	}
}

// TestGameAnalysisCancelled checks that a client that goes away stops its whole-game analysis
// and frees its slot.
func TestGameAnalysisCancelled(t *testing.T) {
	s, ts := newTestServer(t, Config{MaxJobs: 1})
	q := playedGame(t, ts.URL)
	ctx, cancel := context.WithCancel(context.Background())
	data, _ := json.Marshal(moveRequest{Game: q, Spec: "mcts:sims=3000"})
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/analyse-game", strings.NewReader(string(data)))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(res.Body)
	if !sc.Scan() {
		t.Fatal("no first line")
	}
	cancel()
	res.Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for s.running.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the whole-game analysis still runs after its client went away")
		}
		time.Sleep(10 * time.Millisecond)
	}
	n := s.searches.Load()
	if int(n) >= len(q.Moves) {
		t.Fatalf("%d searches for a %d-move game: the whole-game analysis ran on", n, len(q.Moves))
	}
	time.Sleep(100 * time.Millisecond)
	if s.searches.Load() != n {
		t.Fatal("searches go on after the cancel")
	}
}

func TestBusy(t *testing.T) {
	s, ts := newTestServer(t, Config{MaxJobs: 1, QueueWait: 50 * time.Millisecond})
	release, err := s.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	code, body := call(t, ts, "POST", "/api/move", moveRequest{Spec: "random"}, nil)
	if code != 503 || !strings.Contains(body, "busy") {
		t.Fatalf("%d %s", code, body)
	}
	release()
	if code, body := call(t, ts, "POST", "/api/move", moveRequest{Spec: "random"}, nil); code != 200 {
		t.Fatalf("after release: %d %s", code, body)
	}
}

// TestNoAgentBeforeSlot: a request waiting for a search slot has not built
// its agent (an alpha-beta table of 2^24 entries here), so --max-jobs
// bounds the memory of agents as well as the searches; a refused request
// built none.
func TestNoAgentBeforeSlot(t *testing.T) {
	s, ts := newTestServer(t, Config{MaxJobs: 1, QueueWait: 300 * time.Millisecond})
	release, err := s.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/api/move", "/api/analyse", "/api/analyse-game"} {
		code, body := call(t, ts, "POST", path, moveRequest{Spec: "alphabeta:depth=2,tt=24"}, nil)
		if code != 503 {
			t.Errorf("%s: %d %s, want 503 (busy)", path, code, body)
		}
	}
	if n := s.built.Load(); n != 0 {
		t.Fatalf("%d agents built by requests that never had a search slot", n)
	}
	release()
	if code, body := call(t, ts, "POST", "/api/move", moveRequest{Spec: "alphabeta:depth=2,tt=10"}, nil); code != 200 || s.built.Load() != 1 {
		t.Fatalf("after release: %d %s, %d agents built", code, body, s.built.Load())
	}
}

func TestRecordRoundTrip(t *testing.T) {
	s, ts := newTestServer(t, Config{})
	q := playedGame(t, ts.URL)
	lines := gameAnalysisLines(t, ts.URL, moveRequest{Game: q, Spec: "mcts:sims=50"})
	an := lines[len(lines)-1].Analysis
	var rec Record
	code, body := call(t, ts, "POST", "/api/record", recordRequest{Game: q, Players: [2]string{"random", "greedy"},
		Specs: [2]string{"random", "greedy"}, Analysis: an}, &rec)
	if code != 200 {
		t.Fatal(code, body)
	}
	if rec.Plies != len(q.Moves) || rec.Reason == "ongoing" || rec.Analysis == nil {
		t.Fatalf("record %+v", rec.Record)
	}
	if err := rec.Check(); err != nil {
		t.Fatalf("the record fails the evaluator's check: %v", err)
	}
	searches := s.searches.Load()
	var l loaded
	code, body = call(t, ts, "POST", "/api/record/load", rec, &l)
	if code != 200 {
		t.Fatal(code, body)
	}
	if s.searches.Load() != searches {
		t.Fatal("loading a record searched")
	}
	if len(l.Record.Analysis.Plies) != len(an.Plies) || l.Record.Analysis.Plies[3].Value != an.Plies[3].Value || len(l.View.Positions) != len(q.Moves)+1 {
		t.Fatalf("loaded %+v", l.Record.Analysis)
	}
	// An unfinished game from a position has a record too.
	var part Record
	if code, body := call(t, ts, "POST", "/api/record", recordRequest{Game: gameRequest{Start: "0,0,1,0,2,1/1,0,0,2,0,1 15-13 S 40", Moves: []int{2}}}, &part); code != 200 || part.Start == "" {
		t.Fatalf("partial: %d %s", code, body)
	}
	if code, body := call(t, ts, "POST", "/api/record/load", part, nil); code != 200 {
		t.Fatalf("load partial: %d %s", code, body)
	}
	// A replayed record keeps its opening; an opening that is not the start
	// of the moves is refused.
	var withOpening Record
	if code, body := call(t, ts, "POST", "/api/record", recordRequest{Game: q, Opening: q.Moves[:2]}, &withOpening); code != 200 || len(withOpening.Opening) != 2 {
		t.Fatalf("opening: %d %s", code, body)
	}
	if code, body := call(t, ts, "POST", "/api/record", recordRequest{Game: q, Opening: []int{9}}, nil); code != 400 || !strings.Contains(body, "opening") {
		t.Fatalf("a bad opening: %d %s", code, body)
	}
	bad := rec
	bad.Stores = [2]int{1, 2}
	tooLong := rec
	tooLong.Analysis = &Analysis{Plies: make([]PlyAnalysis, len(q.Moves)+5)}
	for _, tc := range []struct {
		name string
		body any
		want string
	}{
		{"wrong stores", bad, "disagrees"},
		{"analysis longer than the game", tooLong, "analysis has"},
		{"no rules", `{"moves":[1]}`, "no rules"},
		{"not JSON", "[]", "bad request body"},
	} {
		code, body := call(t, ts, "POST", "/api/record/load", tc.body, nil)
		if code != 400 || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %s", tc.name, code, body)
		}
	}
}

func TestSourcesAndGames(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	var src struct {
		Games []source
		Runs  []runEntry
	}
	call(t, ts, "GET", "/api/sources", nil, &src)
	kinds := map[string]string{}
	for _, s := range src.Games {
		kinds[s.Ref] = s.Kind
	}
	want := map[string]string{"data0/selfplay": kindDataset, "data0/tourney/games.jsonl": kindStore, "data0/tourney/games.csv": kindCSV}
	for ref, k := range want {
		if kinds[ref] != k {
			t.Errorf("sources %v: no %s %s", kinds, k, ref)
		}
	}
	if len(src.Runs) != 1 || src.Runs[0].Ref != "runs0/run1" {
		t.Errorf("runs %+v", src.Runs)
	}
	type list struct {
		Total, All int
		Games      []gameSummary
	}
	for ref := range want {
		var l list
		if code, body := call(t, ts, "GET", "/api/games?source="+ref, nil, &l); code != 200 || l.All == 0 || len(l.Games) != l.All {
			t.Fatalf("%s: %d %s", ref, code, body)
		}
		// Every game loads, replayed and checked.
		for _, g := range l.Games {
			var one loaded
			if code, body := call(t, ts, "GET", "/api/game?source="+ref+"&n="+itoa(g.N), nil, &one); code != 200 {
				t.Fatalf("%s game %d: %d %s", ref, g.N, code, body)
			}
			if len(one.View.Positions) != g.Plies+1 {
				t.Fatalf("%s game %d: %d positions for %d plies", ref, g.N, len(one.View.Positions), g.Plies)
			}
		}
	}
	// Filters.
	var all, f list
	call(t, ts, "GET", "/api/games?source=data0/tourney/games.jsonl", nil, &all)
	call(t, ts, "GET", "/api/games?source=data0/tourney/games.jsonl&result=north", nil, &f)
	for _, g := range f.Games {
		if g.Winner != 1 {
			t.Errorf("result=north gave %+v", g)
		}
	}
	mid := all.Games[0].Plies
	call(t, ts, "GET", "/api/games?source=data0/tourney/games.jsonl&min="+itoa(mid)+"&max="+itoa(mid), nil, &f)
	if f.Total == 0 {
		t.Error("length filter found nothing")
	}
	for _, g := range f.Games {
		if g.Plies != mid {
			t.Errorf("length filter gave %+v", g)
		}
	}
	call(t, ts, "GET", "/api/games?source=data0/selfplay&player=GREEDY", nil, &f)
	if f.Total != f.All {
		t.Errorf("every self-play game has greedy: %d of %d", f.Total, f.All)
	}
	call(t, ts, "GET", "/api/games?source=data0/selfplay&player=mcts", nil, &f)
	if f.Total != 0 {
		t.Errorf("player=mcts: %d games", f.Total)
	}
	call(t, ts, "GET", "/api/games?source=data0/selfplay&offset=2&limit=3", nil, &f)
	if len(f.Games) != 3 || f.Games[0].N != 2 {
		t.Errorf("offset and limit: %+v", f.Games)
	}
	for _, tc := range []struct {
		path string
		code int
		want string
	}{
		{"/api/games?source=data0/selfplay&result=win", 400, "result"},
		{"/api/games?source=data0/selfplay&min=-1", 400, "min"},
		{"/api/games?source=data0/selfplay&limit=x", 400, "limit"},
		{"/api/games?source=data0/none", 404, "not found"},
		{"/api/games?source=data0/urim5.yaml", 404, "not a game store"},
		{"/api/games?source=data0/../../etc", 403, "outside"},
		{"/api/games?source=nowhere", 403, "names no served"},
		{"/api/games?source=data0//etc/passwd", 403, "outside"},
		{"/api/game?source=data0/selfplay&n=99", 404, "games 0 to"},
		{"/api/game?source=data0/selfplay&n=x", 404, "n="},
	} {
		code, body := call(t, ts, "GET", tc.path, nil, nil)
		if code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %s, want %d and %q", tc.path, code, body, tc.code, tc.want)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestRun(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	var v runView
	code, body := call(t, ts, "GET", "/api/run?run=runs0/run1", nil, &v)
	if code != 200 {
		t.Fatal(code, body)
	}
	if v.Rows != 3 || len(v.Columns["policy_loss"]) != 3 || *v.Columns["elo"][2] != 240 || v.Columns["elo"][1] != nil {
		t.Fatalf("run %+v", v)
	}
	if len(v.Samples) != 3 || v.SamplesRef != "runs0/run1/selfplay/games.jsonl" {
		t.Fatalf("samples %+v %s", v.Samples, v.SamplesRef)
	}
	for i, g := range v.Samples {
		if g.Iteration == nil || *g.Iteration != i+1 {
			t.Fatalf("sample %d: iteration %v, want %d (from its specs)", i, g.Iteration, i+1)
		}
	}
	var l loaded
	if code, body := call(t, ts, "GET", "/api/game?source="+v.SamplesRef+"&n=0", nil, &l); code != 200 {
		t.Fatalf("a sampled game: %d %s", code, body)
	}
	// A live run: a new row shows at the next request.
	f := testFixture(t)
	path := filepath.Join(f.runs, "run1", "metrics.csv")
	old, _ := os.ReadFile(path)
	t.Cleanup(func() { os.WriteFile(path, old, 0o644) })
	os.WriteFile(path, append(old, []byte("4,40,64,4300,57,0,0,5,860,16600,50,10,0.001,1.1,0.5,1.1,0.005,,,,,3\n")...), 0o644)
	call(t, ts, "GET", "/api/run?run=runs0/run1", nil, &v)
	if v.Rows != 4 {
		t.Fatalf("after a new row: %d rows", v.Rows)
	}
	for _, tc := range []struct {
		path string
		code int
	}{
		{"/api/run?run=runs0", 404},
		{"/api/run?run=runs0/../data", 403},
		{"/api/run?run=data0/selfplay", 403}, // a data path is not a run path
	} {
		if code, body := call(t, ts, "GET", tc.path, nil, nil); code != tc.code {
			t.Errorf("%s: %d %s", tc.path, code, body)
		}
	}
}

func TestCrossOrigin(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	send := func(method, path, origin, site string) int {
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(`{"moves":[]}`))
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if site != "" {
			req.Header.Set("Sec-Fetch-Site", site)
		}
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, tc := range []struct {
		method, path, origin, site string
		code                       int
	}{
		{"POST", "/api/game", "http://evil.example", "", 403},
		{"POST", "/api/game", "", "cross-site", 403},
		{"POST", "/api/move", "http://localhost:1", "", 403},
		{"POST", "/api/game", ts.URL, "", 200},
		{"POST", "/api/game", "", "same-origin", 200},
		{"POST", "/api/game", "", "", 200}, // not a browser
		{"GET", "/api/info", "http://evil.example", "cross-site", 200},
	} {
		if code := send(tc.method, tc.path, tc.origin, tc.site); code != tc.code {
			t.Errorf("%s %s Origin %q Sec-Fetch-Site %q: %d, want %d", tc.method, tc.path, tc.origin, tc.site, code, tc.code)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:8080": true, "localhost:80": true, "[::1]:0": true,
		":8080": false, "0.0.0.0:80": false, "192.168.1.2:80": false, "nonsense": false} {
		if IsLoopback(addr) != want {
			t.Errorf("IsLoopback(%q) = %v", addr, !want)
		}
	}
}

func TestNewRefusesMissingPaths(t *testing.T) {
	if _, err := New(Config{Data: PathList{"/no/such/dir"}}); err == nil {
		t.Fatal("a missing --data accepted")
	}
	if _, err := New(Config{Tablebase: filepath.Join(testFixture(t).data, "urim5.yaml")}); err == nil {
		t.Fatal("a non-table --tablebase accepted")
	}
}

func TestLoopbackHosts(t *testing.T) {
	_, ts := newTestServer(t, Config{LoopbackHosts: true})
	for host, want := range map[string]int{"": 200, "localhost:8080": 200, "127.0.0.1:1": 200, "[::1]:80": 200, "evil.example:8080": 421, "evil.example": 421} {
		req, _ := http.NewRequest("GET", ts.URL+"/api/info", nil)
		if host != "" {
			req.Host = host
		}
		res, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("Host %q: %d, want %d", host, res.StatusCode, want)
		}
	}
}
