package env

import "fmt"

// CheckOpening reports, as an error that names the numbers, whether random
// openings of plies plies cannot start the games of g: the rules' ply cap
// (max_plies) must leave a ply to play after them, and some opening of
// that many plies must leave the game running (on a small board every game
// may end sooner). Every config that draws openings ([Game.RandomOpening],
// a Vec's OpeningPlies) checks it first.
func (g *Game) CheckOpening(plies int) error {
	if err := g.checkOpeningCap(plies); err != nil {
		return err
	}
	if plies <= 0 {
		return nil
	}
	o := openingSearch{fail: map[State]int{}, budget: openingBudget}
	s := g.start
	if d := o.deepest(&s, plies, nil); d < plies && !o.exhausted {
		return fmt.Errorf("no opening of %d random plies leaves a game of %s running: every game ends by ply %d (want at most %d opening plies)",
			plies, g.Name(), d+1, d)
	}
	return nil
}

// checkOpeningCap is CheckOpening's check of the rules' ply cap alone.
func (g *Game) checkOpeningCap(plies int) error {
	if m := g.maxPlies; m > 0 && plies >= m {
		return fmt.Errorf("%d random opening plies leave no ply before the rules' cap max_plies %d: want fewer than %d", plies, m, m)
	}
	return nil
}

// openingBudget bounds the positions one opening search visits: a board
// where openings are that hard to find is far larger than the small ones
// whose games all end early, and a search that runs out assumes one exists.
const openingBudget = 1 << 20

// openingSearch looks depth-first, moves in order, for plies that leave the
// game running.
type openingSearch struct {
	fail      map[State]int // positions searched: the most plies they allow (below what was wanted)
	budget    int
	exhausted bool // the budget ran out: the answer is a guess
}

// deepest returns the most plies, up to want, that can be played from s
// without ending the game, writing the first such line to moves when it
// reaches want and moves is not nil.
func (o *openingSearch) deepest(s *State, want int, moves []int) int {
	if want == 0 {
		return 0
	}
	if d, ok := o.fail[*s]; ok {
		return d
	}
	if o.budget--; o.budget < 0 {
		o.exhausted = true
		return want
	}
	best := 0
	for a := range s.g.PitsPerRow() {
		if !s.legal.Has(a) {
			continue
		}
		t := *s
		t.Play(a)
		if t.end != Ongoing {
			continue
		}
		var rest []int
		if moves != nil {
			rest = moves[1:]
		}
		if d := 1 + o.deepest(&t, want-1, rest); d > best {
			best = d
			if best == want {
				if moves != nil {
					moves[0] = a
				}
				return best
			}
		}
	}
	o.fail[*s] = best
	return best
}

// firstOpening writes to moves the first line of len(moves) plies (moves in
// order) that leaves the game running: the opening of a draw whose random
// tries all failed. It panics if there is none, which CheckOpening rules
// out first.
func (g *Game) firstOpening(moves []int) {
	o := openingSearch{fail: map[State]int{}, budget: openingBudget}
	s := g.start
	if o.deepest(&s, len(moves), moves) < len(moves) || o.exhausted {
		panic(fmt.Sprintf("env: no %d-ply opening of %s leaves the game running (CheckOpening refuses it)", len(moves), g.Name()))
	}
}
