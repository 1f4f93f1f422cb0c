package web

import (
	"math"
	"testing"
	"time"
)

// TestAnalyseTopMoves: a single analysis lists the engine's top moves with
// their own values and visits (MCTS: the move played first, with the value
// reported; alpha-beta: every legal move, the best worth the value
// reported), and a whole-game analysis by alpha-beta leaves them out.
func TestAnalyseTopMoves(t *testing.T) {
	_, ts := newTestServer(t, Config{})
	var res struct {
		Unit     string
		Analysis PlyAnalysis
	}
	for _, spec := range []string{"mcts:sims=400", "mcts:sims=400,threads=2", "alphabeta:depth=6"} {
		res.Analysis = PlyAnalysis{}
		if code, body := call(t, ts, "POST", "/api/analyse", analyseRequest{Game: gameRequest{Moves: startMoves}, Ply: 2, Spec: spec}, &res); code != 200 {
			t.Fatal(spec, code, body)
		}
		a := res.Analysis
		if len(a.Roots) == 0 || a.Roots[0].Action != *a.Best || math.Abs(a.Roots[0].Value-a.Value) > 1e-9 || math.Abs(a.Roots[0].Norm-a.Norm) > 1e-9 {
			t.Fatalf("%s: roots %+v, best %d value %g", spec, a.Roots, *a.Best, a.Value)
		}
		sum := 0
		for i, r := range a.Roots {
			sum += r.Visits
			if r.PV[0] != r.Action || r.Norm < -1 || r.Norm > 1 || (res.Unit == "seeds" && i > 0 && r.Value > a.Roots[i-1].Value) {
				t.Fatalf("%s: root move %d: %+v", spec, i, r)
			}
		}
		if res.Unit == "seeds" && (len(a.Roots) < 2 || sum != 0) {
			t.Fatalf("%s: %d root moves with %d visits", spec, len(a.Roots), sum)
		}
		if res.Unit == "value" && sum < 390 {
			t.Fatalf("%s: the root moves hold %d visits", spec, sum)
		}
	}
	// The server's deepest alpha-beta answers with its top moves in a few
	// seconds (each move searched one ply less deep).
	start := time.Now()
	if code, body := call(t, ts, "POST", "/api/analyse", analyseRequest{Game: gameRequest{Moves: startMoves}, Spec: "alphabeta:depth=12"}, &res); code != 200 || len(res.Analysis.Roots) < 2 {
		t.Fatal(code, body)
	}
	t.Logf("alphabeta:depth=12 with its top moves: %v", time.Since(start))
	lines := gameAnalysisLines(t, ts.URL, moveRequest{Game: gameRequest{Moves: startMoves}, Spec: "alphabeta:depth=3"})
	for _, l := range lines {
		if l.Ply != nil && l.Ply.Roots != nil {
			t.Fatalf("a whole-game analysis by alpha-beta lists top moves at ply %d", l.Ply.Ply)
		}
	}
}
