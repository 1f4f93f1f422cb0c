package evaluate

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestTournamentAgentBound: a tournament of 20,000 agents is refused at
// once, naming the bound, before any pairing or agent is built; one whose
// pairings times games pass MaxTournamentGames likewise.
func TestTournamentAgentBound(t *testing.T) {
	var specs []string
	for i := range 20000 {
		specs = append(specs, fmt.Sprintf("mcts:sims=%d", i+1))
	}
	cfg := Config{Agents: players(specs...), Games: 2, Setup: DefaultSetup()}
	start := time.Now()
	err := cfg.Validate()
	if err == nil || !strings.Contains(err.Error(), fmt.Sprint(MaxTournamentAgents)) {
		t.Fatalf("20,000 agents: %v, want the bound %d named", err, MaxTournamentAgents)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusing took %v", d)
	}
	cfg = Config{Agents: players(specs[:1000]...), Games: 4, Setup: DefaultSetup()}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), fmt.Sprint(MaxTournamentGames)) {
		t.Fatalf("1000 agents × 4 games: %v, want the game bound named", err)
	}
}
