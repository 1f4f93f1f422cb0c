package env

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTraceAgreesWithPlay replays random games of every preset and checks
// that each trace, sown and captured by hand, gives the board Play gives.
func TestTraceAgreesWithPlay(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	captures := 0
	for _, r := range []Rules{Urim, Urim7, Urim4, Oware} {
		g := MustGame(r)
		for range 200 {
			s := g.Start()
			for !s.Terminal() {
				legal := s.Legal().Actions()
				a := legal[rng.IntN(len(legal))]
				tr, err := s.Trace(a)
				if err != nil {
					t.Fatal(err)
				}
				board := slices.Clone(s.Pits())
				if tr.Origin != s.ToMove()*g.PitsPerRow()+a || len(tr.Path) != board[tr.Origin] {
					t.Fatalf("%s %v action %d: origin %d, %d seeds sown", r.Name, s, a, tr.Origin, len(tr.Path))
				}
				board[tr.Origin] = 0
				for _, i := range tr.Path {
					board[i]++
				}
				taken := 0
				for _, i := range tr.Captured {
					taken += board[i]
					board[i] = 0
				}
				mover := s.ToMove()
				next := s
				next.Play(a)
				if taken != tr.Taken || next.Store(mover)-s.Store(mover) != taken {
					t.Fatalf("%s %v action %d: trace takes %d (%d), the move %d", r.Name, s, a, taken, tr.Taken, next.Store(mover)-s.Store(mover))
				}
				if !next.Terminal() && !slices.Equal(board, next.Pits()) {
					t.Fatalf("%s %v action %d: trace gives %v, Play %v", r.Name, s, a, board, next.Pits())
				}
				if taken > 0 {
					captures++
				}
				s = next
			}
		}
	}
	if captures == 0 {
		t.Fatal("no capture in the games: the test checks nothing about captures")
	}
}

func TestTraceRefusesIllegal(t *testing.T) {
	s := MustGame(Urim).Start()
	if _, err := s.Trace(9); err == nil {
		t.Fatal("action 9 traced")
	}
}
