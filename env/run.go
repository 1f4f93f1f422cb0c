package env

// Run returns the positions of the current run without a capture, oldest
// first: the position right after the last capture (or the start), every
// position played since, and s's own last. These are the positions the
// repetition ending compares every later position of the run with. Each is a
// State with its own history, as it was when it was played.
func (s *State) Run() []State {
	h := &s.hist
	q := h.quiet()
	first := State{g: s.g, pits: h.anchor, stores: s.stores, toMove: s.toMove ^ uint8(q&1), ply: s.ply - uint32(q)}
	first.settle(-1, false)
	out := make([]State, 0, q+1)
	out = append(out, first)
	for _, a := range h.actions() {
		next := out[len(out)-1]
		next.Play(a)
		out = append(out, next)
	}
	return out
}

// Fresh returns s with a fresh history, as if a capture had just been
// made: the same position, whose run starts here. A position that had
// ended by repetition is ongoing again.
func (s State) Fresh() State {
	s.settle(-1, false)
	return s
}
