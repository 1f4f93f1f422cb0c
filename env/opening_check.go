package env

import "fmt"

// CheckOpening reports, as an error that names both numbers, whether random
// openings of plies plies cannot start the games of g: the rules' ply cap
// (max_plies) must leave a ply to play after them. Every config that draws
// openings ([Game.RandomOpening], a Vec's OpeningPlies) checks it first.
func (g *Game) CheckOpening(plies int) error {
	if m := g.maxPlies; m > 0 && plies >= m {
		return fmt.Errorf("%d random opening plies leave no ply before the rules' cap max_plies %d: want fewer than %d", plies, m, m)
	}
	return nil
}
