package evaluate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
)

// TestStoreRejectsCorruptRecords edits one stored game in each way a file
// can go wrong and expects OpenStore to name the line and the problem.
func TestStoreRejectsCorruptRecords(t *testing.T) {
	res := smallTournament(t)
	path := filepath.Join(t.TempDir(), "s.jsonl")
	s, err := OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Games {
		if err := r.Check(); err != nil {
			t.Fatalf("a freshly played game fails its check: %v", err)
		}
		s.Add(r)
	}
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	r := res.Games[0]
	for _, c := range []struct {
		edit func(*Record)
		want string
	}{
		{func(r *Record) { r.Stores[0]++ }, "stores"},
		{func(r *Record) { r.MatchPoints = [2]int{2, 2} }, "match points"},
		{func(r *Record) { r.Moves = r.Moves[:len(r.Moves)-1]; r.Plies-- }, "not ended"},
		{func(r *Record) { r.Moves = append(r.Moves, 0); r.Plies++ }, "game is over"},
		{func(r *Record) { r.Reason = "repetition_maybe" }, "reason"},
		{func(r *Record) { r.Rules = "mancala" }, "unknown rules preset"},
		{func(r *Record) { r.Opening = []int{9} }, "opening"},
	} {
		bad := r
		bad.Moves = append([]int(nil), r.Moves...)
		bad.Opening = append([]int(nil), r.Opening...)
		c.edit(&bad)
		err := bad.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Check of an edited record: %v, want an error about %q", err, c.want)
		}
	}
	// A stored line with wrong stores is refused, naming file and line.
	for i, l := range lines {
		if strings.Contains(l, `"stores":[`) {
			lines[i] = strings.Replace(l, `"stores":[`, `"stores":[1`, 1)
			os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
			_, err := OpenStore(path)
			if err == nil || !strings.Contains(err.Error(), "corrupt game record") || !strings.Contains(err.Error(), path+":") {
				t.Errorf("corrupt store: error %v", err)
			}
			break
		}
	}
}

// TestStoreRefusesVersion1: stores written before the openings came from
// env.Game.RandomOpening hold games no run asks for again.
func TestStoreRefusesVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.jsonl")
	os.WriteFile(path, []byte(`{"format":"urim-games","version":1,"rules_version":1}`+"\n"), 0o644)
	if _, err := OpenStore(path); err == nil || !strings.Contains(err.Error(), "store version 1") {
		t.Errorf("a version 1 store: %v", err)
	}
}

// TestRecordCheckCustomRules: a record of custom rules is checked under
// them, and the same moves under the preset of that name are not.
func TestRecordCheckCustomRules(t *testing.T) {
	r := env.Urim
	r.Name, r.SeedsPerPit = "five.yaml", 5
	g, err := env.NewGame(r)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := Play(context.Background(), g, [2]agents.Agent{classic.NewRandom(1), classic.NewRandom(2)}, g.RandomOpening(2, 1))
	if err != nil {
		t.Fatal(err)
	}
	if rec.CustomRules == nil || rec.CustomRules.SeedsPerPit != 5 || rec.Rules != "five.yaml" {
		t.Fatalf("record rules %q %+v", rec.Rules, rec.CustomRules)
	}
	if err := rec.Check(); err != nil {
		t.Errorf("Check under the record's own rules: %v", err)
	}
	rec.CustomRules = nil
	if err := rec.Check(); err == nil {
		t.Error("a custom-rules game passed as a preset game")
	}
}
