package tablebase

import (
	"errors"
	"fmt"

	"github.com/urim-rl/urim/env"
)

// rules is the compiled form of env.Rules that the solver's move generator
// reads. Boards are canonical: the player to move owns pits 0 … P-1.
type rules struct {
	p, n     int
	capacity uint8 // 255 when unlimited
	trigger  uint64
	chain    uint64
	slamOK   bool
	majority bool
	half     int // T/2
	total    int
}

// ErrUnsupported is returned for rules the table cannot be exact for.
var ErrUnsupported = errors.New("tablebase: unsupported rules")

func compile(r env.Rules) (rules, error) {
	if err := r.Validate(); err != nil {
		return rules{}, err
	}
	if r.MaxPlies > 0 {
		// A ply cap makes the value depend on the ply, which a table of
		// boards cannot know.
		return rules{}, fmt.Errorf("%w: max_plies %d makes values depend on the ply; use rules without a cap", ErrUnsupported, r.MaxPlies)
	}
	c := rules{p: r.PitsPerRow, n: 2 * r.PitsPerRow, capacity: 255, slamOK: r.GrandSlam == env.GrandSlamCapture,
		majority: r.EndOnMajority, half: r.Total() / 2, total: r.Total()}
	if r.Capacity > 0 {
		c.capacity = uint8(r.Capacity)
	}
	for _, v := range r.Trigger {
		c.trigger |= 1 << uint(v)
	}
	for _, v := range r.Chain {
		c.chain |= 1 << uint(v)
	}
	return c, nil
}

// legal returns the legal actions of the player to move on canonical board
// b as a bit mask, the feeding rule included (env's legal-move rule).
func (r *rules) legal(b *[16]uint8) uint8 {
	oppEmpty := true
	for i := r.p; i < r.n; i++ {
		if b[i] != 0 {
			oppEmpty = false
			break
		}
	}
	var m uint8
	if !oppEmpty {
		for a := 0; a < r.p; a++ {
			if b[a] != 0 {
				m |= 1 << uint(a)
			}
		}
		return m
	}
	room := 0 // own pits after a that take a seed
	for a := r.p - 1; a >= 0; a-- {
		if int(b[a]) > room {
			m |= 1 << uint(a)
		}
		if b[a] < r.capacity {
			room++
		}
	}
	return m
}

// play applies action a (legal) to canonical board b in place and returns
// the seeds captured. The board stays in the mover's frame.
func (r *rules) play(b *[16]uint8, a int) int {
	last := env.Sow(b, r.n, a, r.capacity, nil)
	if last < r.p || r.trigger>>b[last]&1 == 0 {
		return 0
	}
	taken := int(b[last])
	first := last
	for first-1 >= r.p && r.chain>>b[first-1]&1 == 1 {
		first--
		taken += int(b[first])
	}
	if !r.slamOK && first == r.p {
		slam := true
		for j := last + 1; j < r.n; j++ {
			if b[j] != 0 {
				slam = false
				break
			}
		}
		if slam {
			return 0
		}
	}
	for j := first; j <= last; j++ {
		b[j] = 0
	}
	return taken
}

// flip turns a board in one player's frame into the other's.
func (r *rules) flip(b *[16]uint8) {
	var c [16]uint8
	copy(c[:r.p], b[r.p:r.n])
	copy(c[r.p:r.n], b[:r.p])
	*b = c
}

// rowSeeds returns the seeds in pits lo … lo+P-1.
func (r *rules) rowSeeds(b *[16]uint8, lo int) int {
	s := 0
	for i := lo; i < lo+r.p; i++ {
		s += int(b[i])
	}
	return s
}

// slots is the number of store values a layer of n seeds is indexed by:
// one without the majority ending (stores change nothing); with it, the
// mover's store s runs over T/2-n … T/2 (every store pair with no majority
// yet), slot s-(T/2-n).
func (r *rules) slots(n int) int {
	if !r.majority {
		return 1
	}
	return n + 1
}
