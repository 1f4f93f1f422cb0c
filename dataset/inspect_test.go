package dataset

import (
	"bytes"
	"strings"
	"testing"
)

func TestInspect(t *testing.T) {
	dir := smallDataset(t) // 6 games, mcts:sims=10 against random
	s, err := Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	reasons, mp := 0, 0
	for _, n := range s.Reasons {
		reasons += n
	}
	for _, n := range s.MatchPoints {
		mp += n
	}
	if s.Games != 6 || s.SouthWins+s.NorthWins+s.Draws != 6 || reasons != 6 || mp != 6 || !s.Complete {
		t.Fatalf("summary %+v does not account for 6 games", s)
	}
	if len(s.Agents) != 2 || s.Agents[0].Spec != "mcts:sims=10" || s.Agents[0].Seats != 6 || s.Agents[1].Seats != 6 {
		t.Fatalf("agents %+v, want mcts:sims=10 and random with 6 seats each", s.Agents)
	}
	if a, b := s.Agents[0], s.Agents[1]; a.Wins != b.Loss || a.Loss != b.Wins || a.Draws != b.Draws {
		t.Fatalf("the two agents' results do not mirror: %+v", s.Agents)
	}
	if s.Plies.Min > s.Plies.Median || s.Plies.Median > s.Plies.Max || s.Rows.Mean > s.Plies.Mean {
		t.Fatalf("lengths %+v, rows %+v", s.Plies, s.Rows)
	}
	var buf bytes.Buffer
	if err := s.WriteText(&buf); err != nil || !strings.Contains(buf.String(), "match points, South − North") {
		t.Fatalf("WriteText: %v\n%s", err, buf.String())
	}
}
