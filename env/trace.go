package env

// Trace is one move told seed by seed, for a display that animates it: the
// pit emptied, the pit each seed fell in (in sowing order, laps and skipped
// full pits included), and the pits captured (in chain order, from the pit
// the last seed fell in backwards) with the seeds they held.
type Trace struct {
	// Origin is the absolute index of the pit sown (mover·P + action).
	Origin int `json:"origin"`
	// Path lists the absolute pit of each seed in the order sown.
	Path []int `json:"path"`
	// Captured lists the absolute pits emptied by the capture; Taken is the
	// seeds they held, now in the mover's store.
	Captured []int `json:"captured"`
	Taken    int   `json:"taken"`
}

// Trace tells how the player to move plays action a: s is not changed. It
// reports the error of [State.Check] for an action that cannot be played.
// The capture is read from the move as [State.Play] makes it, so a trace
// never disagrees with the engine.
func (s *State) Trace(a int) (Trace, error) {
	if err := s.Check(a); err != nil {
		return Trace{}, err
	}
	g := s.g
	o := int(s.toMove)*g.p + a
	t := Trace{Origin: o, Path: make([]int, 0, s.pits[o]), Captured: []int{}}
	sown := s.pits
	Sow(&sown, g.n, o, g.capacity, &t.Path)
	mover := int(s.toMove)
	after := *s
	after.Play(a)
	taken := int(after.stores[mover]) - int(s.stores[mover])
	lo := (1 - mover) * g.p // the opponent's row, where captures are
	for i := t.Path[len(t.Path)-1]; t.Taken < taken && i >= lo && i < lo+g.p; i-- {
		t.Captured = append(t.Captured, i)
		t.Taken += int(sown[i])
	}
	return t, nil
}
