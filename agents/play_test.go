package agents_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
)

// resetCounter counts its resets and plays the first legal action.
type resetCounter struct{ resets int }

func (r *resetCounter) Act(s *env.State) (int, error) { return s.Legal().Nth(0), nil }
func (r *resetCounter) Reset()                        { r.resets++ }

// TestPlayGameHookSeesEveryMove checks the hook's events against a replay of
// the returned game: the position before each move, the seat, the ply, the
// action, and a search report exactly for the Searcher.
func TestPlayGameHookSeesEveryMove(t *testing.T) {
	g := env.MustGame(env.Urim)
	ab, err := agents.New("alphabeta:depth=2", 1)
	if err != nil {
		t.Fatal(err)
	}
	players := [2]agents.Agent{ab, classic.NewRandom(2)}
	var events []agents.MoveEvent
	var befores []env.State
	end, err := agents.PlayGame(context.Background(), g.Start(), players, func(ev agents.MoveEvent) error {
		// Before and Search belong to the loop: keep copies.
		befores = append(befores, *ev.Before)
		if ev.Search != nil {
			info := *ev.Search
			ev.Search = &info
		}
		ev.Before = nil
		events = append(events, ev)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !end.Terminal() {
		t.Fatalf("PlayGame returned an ongoing game: %v", end)
	}
	s := g.Start()
	for i, ev := range events {
		if befores[i].String() != s.String() {
			t.Fatalf("move %d: Before = %v, want %v", i, befores[i], s)
		}
		if ev.Player != s.ToMove() || ev.Ply != s.Ply() {
			t.Fatalf("move %d: player %d ply %d, want %d and %d", i, ev.Player, ev.Ply, s.ToMove(), s.Ply())
		}
		if (ev.Search != nil) != (ev.Player == 0) {
			t.Fatalf("move %d by seat %d: search report %v, want one only for the alpha-beta seat", i, ev.Player, ev.Search)
		}
		if ev.Search != nil && (len(ev.Search.PV) == 0 || ev.Search.PV[0] != ev.Action || ev.Search.Depth != 2) {
			t.Fatalf("move %d: search %+v does not match action %d at depth 2", i, *ev.Search, ev.Action)
		}
		if err := s.Check(ev.Action); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		s.Play(ev.Action)
	}
	if s.String() != end.String() || s.Reason() != end.Reason() {
		t.Fatalf("replaying the hook's actions gives %v, PlayGame returned %v", s, end)
	}
}

func TestPlayGameResetsAndStops(t *testing.T) {
	g := env.MustGame(env.Urim)
	r := &resetCounter{}
	stop := errors.New("stop")
	n := 0
	s, err := agents.PlayGame(context.Background(), g.Start(), [2]agents.Agent{r, classic.NewRandom(1)}, func(agents.MoveEvent) error {
		if n++; n == 5 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("hook error: got %v", err)
	}
	if r.resets != 1 {
		t.Errorf("Resetter reset %d times, want once", r.resets)
	}
	if s.Ply() != 4 {
		t.Errorf("stopped at ply %d, want 4 (the hook's fifth move is not made)", s.Ply())
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := agents.PlayGame(ctx, g.Start(), [2]agents.Agent{r, r}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled context: got %v", err)
	}
}

func TestPlayGameRefusesIllegalAnswers(t *testing.T) {
	g := env.MustGame(env.Urim)
	// South's pit a (action 0) is empty here.
	s, err := g.ParsePosition("0,4,4,4,4,4/3,3,3,3,2,2 0-0 S 3")
	if err != nil {
		t.Fatal(err)
	}
	zero := agents.Func(func(*env.State) (int, error) { return 0, nil })
	end, err := agents.PlayGame(context.Background(), s, [2]agents.Agent{zero, zero}, nil)
	var ill *agents.IllegalActionError
	if !errors.Is(err, agents.ErrAgent) || !errors.Is(err, env.ErrIllegal) || !errors.As(err, &ill) {
		t.Fatalf("illegal answer: error %v, want ErrAgent wrapping an IllegalActionError", err)
	}
	if ill.Action != 0 || !strings.Contains(err.Error(), "South at ply 3") || !strings.Contains(err.Error(), "its pit is empty") {
		t.Errorf("error %q does not name the seat, ply, action and reason", err)
	}
	if end.String() != s.String() {
		t.Errorf("returned %v, want the position where the game stopped", end)
	}
	failing := agents.Func(func(*env.State) (int, error) { return 0, errors.New("engine died") })
	if _, err := agents.PlayGame(context.Background(), s, [2]agents.Agent{failing, zero}, nil); !errors.Is(err, agents.ErrAgent) ||
		!strings.Contains(err.Error(), "engine died") {
		t.Errorf("failing agent: error %v", err)
	}
}

// TestValidateBuildsNothing: checking a spec must not start an external
// engine (the program here does not exist, so building would fail) yet must
// still catch bad parameters.
func TestValidateBuildsNothing(t *testing.T) {
	if err := agents.Validate("external:cmd='/nonexistent/engine --x'"); err != nil {
		t.Errorf("Validate started the engine: %v", err)
	}
	for _, spec := range []string{"external:cmd='x',timeout=soon", "external", "mcts:sims=-1", "alphabeta:dept=3", "random:x=1", "nosuch"} {
		if err := agents.Validate(spec); !errors.Is(err, agents.ErrSpec) {
			t.Errorf("Validate(%q) = %v, want an ErrSpec", spec, err)
		}
	}
	for _, spec := range []string{"random", "greedy", "mcts:sims=10", "alphabeta:depth=3,tt=10"} {
		if err := agents.Validate(spec); err != nil {
			t.Errorf("Validate(%q) = %v", spec, err)
		}
	}
}
