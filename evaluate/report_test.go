package evaluate

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/urim-rl/urim/env"
)

func smallTournament(t *testing.T) *Result {
	t.Helper()
	res, err := RunTournament(context.Background(), Config{Agents: players("random", "test-capture", "test-first"),
		Games: 20, Setup: Setup{OpeningPlies: 2, Paired: true, Seed: 9}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRatesAgreeWithCSV recomputes every pairing's match-point rates from the
// game CSV and compares them with the summary.
func TestRatesAgreeWithCSV(t *testing.T) {
	res := smallTournament(t)
	var buf bytes.Buffer
	if err := WriteCSV(&buf, res.Games); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(res.Games)+1 || strings.Join(rows[0], ",") != strings.Join(CSVHeader, ",") {
		t.Fatalf("%d rows, header %v", len(rows), rows[0])
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, ps := range res.Pairs {
		var counts [5]int
		n, wins, mp := 0, 0, 0
		for _, row := range rows[1:] {
			seatA, seatB := "", ""
			switch {
			case row[col["south"]] == ps.A && row[col["north"]] == ps.B:
				seatA, seatB = "south", "north"
			case row[col["north"]] == ps.A && row[col["south"]] == ps.B:
				seatA, seatB = "north", "south"
			default:
				continue
			}
			a, _ := strconv.Atoi(row[col[seatA+"_mp"]])
			b, _ := strconv.Atoi(row[col[seatB+"_mp"]])
			counts[2-(a-b)]++
			mp += a
			n++
			if row[col["winner"]] == seatA {
				wins++
			}
		}
		if n != ps.Games || wins != ps.Wins || counts != ps.MPCounts {
			t.Errorf("%s vs %s: CSV gives %d games, %d wins, counts %v; summary %d, %d, %v", ps.A, ps.B, n, wins, counts, ps.Games, ps.Wins, ps.MPCounts)
		}
		sum := 0.0
		for _, r := range ps.MPRates {
			sum += r
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("%s vs %s: rates sum to %g", ps.A, ps.B, sum)
		}
		if math.Abs(ps.AvgMP-float64(mp)/float64(n)) > 1e-12 {
			t.Errorf("%s vs %s: average MP %g, CSV %g", ps.A, ps.B, ps.AvgMP, float64(mp)/float64(n))
		}
		if ps.Wins+ps.Draws+ps.Losses != ps.Games || ps.SouthWins+ps.SouthDraws+ps.SouthLosses != ps.Games {
			t.Errorf("%s vs %s: W/D/L do not add up: %+v", ps.A, ps.B, ps)
		}
	}
	// The capturing agent should beat random more often than not.
	if ps := res.Pairs[0]; ps.A != "random" || ps.B != "test-capture" || ps.Score > 0.5 {
		t.Errorf("random vs test-capture: %+v", ps)
	}
}

func TestReportsAreWritten(t *testing.T) {
	res := smallTournament(t)
	dir := filepath.Join(t.TempDir(), "out")
	paths, err := WriteReports(dir, res)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 4 {
		t.Fatalf("wrote %v", paths)
	}
	md, _ := os.ReadFile(filepath.Join(dir, ReportMarkdown))
	for _, want := range []string{"# Tournament: round_robin on urim", "| rank | agent | Elo", "| random | test-capture |", "random anchored at 0"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	var back struct {
		Players []string
		Ratings Ratings
		Pairs   []PairStats
	}
	data, _ := os.ReadFile(filepath.Join(dir, ReportJSON))
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Ratings.Players) != 3 || back.Pairs[1] != res.Pairs[1] {
		t.Errorf("results.json does not round-trip: %+v", back)
	}
	png, _ := os.ReadFile(filepath.Join(dir, ReportChart))
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) || len(png) < 1000 {
		t.Errorf("ratings.png is not a PNG (%d bytes)", len(png))
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("%d files in the output directory", len(entries))
	}
}

func TestStoreRoundTripAndVersion(t *testing.T) {
	res := smallTournament(t)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	s, err := OpenStore(path)
	if err != nil || s.Len() != 0 {
		t.Fatalf("new store: %v, %d games", err, s.Len())
	}
	for _, r := range res.Games {
		s.Add(r)
	}
	s.Add(res.Games[0]) // the same game again replaces itself
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Len() != len(res.Games) {
		t.Fatalf("%d games read back, want %d", back.Len(), len(res.Games))
	}
	if r, ok := back.Lookup(RecordKey(&res.Games[5])); !ok || r.Plies != res.Games[5].Plies {
		t.Errorf("lookup of game 5 failed")
	}
	data, _ := os.ReadFile(path)
	bad := strings.Replace(string(data), `"rules_version":`+strconv.Itoa(env.RulesVersion), `"rules_version":999`, 1)
	os.WriteFile(path, []byte(bad), 0o644)
	if _, err := OpenStore(path); err == nil || !strings.Contains(err.Error(), "rules version 999") {
		t.Errorf("stale store: error %v", err)
	}
	os.WriteFile(path, []byte("hello\n"), 0o644)
	if _, err := OpenStore(path); err == nil {
		t.Errorf("a file without a header was accepted")
	}
}
