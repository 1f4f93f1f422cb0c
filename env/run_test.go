package env

import "testing"

// TestRun: Run rebuilds the positions since the last capture, oldest
// first, ending with the position itself, each with its history.
func TestRun(t *testing.T) {
	g := MustGame(Urim)
	start := g.Start()
	s := start
	for _, a := range []int{3, 2} {
		s.Play(a)
	}
	run := s.Run()
	if len(run) != 3 || !run[0].SamePosition(&start) || run[0].Quiet() != 0 || run[2].String() != s.String() {
		t.Fatalf("run of %s: %d positions", s.String(), len(run))
	}
	if len(start.Run()) != 1 {
		t.Fatalf("the start's run has %d positions, want 1", len(start.Run()))
	}
}

// TestFresh: Fresh keeps the position and forgets the run.
func TestFresh(t *testing.T) {
	g := MustGame(Urim)
	s := g.Start()
	s.Play(3)
	f := s.Fresh()
	if !f.SamePosition(&s) || f.Quiet() != 0 || len(f.Run()) != 1 || f.Legal() != s.Legal() {
		t.Fatalf("Fresh of %s is %s", s.String(), f.String())
	}
}
