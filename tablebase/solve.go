package tablebase

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urim-rl/urim/env"
)

// MaxRank is the largest progress rank a table stores: a layer needing more
// rounds is an error (no build within reach comes near it).
const MaxRank = 65535

// Options tune a build. The zero value uses every core and reports nothing.
type Options struct {
	// Workers is the number of goroutines; 0 means runtime.NumCPU().
	Workers int
	// Progress, if set, is called after every round of every layer.
	Progress func(Progress)
	// MemoryLimit makes Build refuse, before allocating, a table whose
	// build would hold more bytes than this (see EstimateBuild); 0 means
	// no limit.
	MemoryLimit uint64
	// StoreMoves also analyses every position's moves with only the
	// position as history, once solved, and stores the result with the
	// table (stored.go: Table.BestSet, and Table.Moves and Table.Best from
	// a fresh history read it).
	StoreMoves bool
}

// Progress describes the state of a build.
type Progress struct {
	Seeds     int    // the layer being solved: boards with this many seeds
	Round     int    // rounds done in this layer
	Changed   uint64 // positions whose bounds changed in the last round
	Done      uint64 // positions of the finished layers
	Total     uint64 // positions of every layer
	LayerDone bool   // the layer has reached its fixed point
	// Moves is set for the pass of Options.StoreMoves, after the layer's
	// moves are analysed (Done counts the positions analysed).
	Moves bool
}

// LayerStats summarizes one solved layer.
type LayerStats struct {
	Seeds     int           `json:"seeds"`
	Positions uint64        `json:"positions"` // valid positions (no pit over capacity)
	Exact     uint64        `json:"exact"`     // positions whose bounds meet
	Rounds    int           `json:"rounds"`
	MaxRank   int           `json:"max_rank"`
	Time      time.Duration `json:"time_ns"`
	// MovesTime is the time of the layer's analysis of the moves
	// (Options.StoreMoves).
	MovesTime time.Duration `json:"moves_time_ns,omitempty"`
}

// solver holds the bounds of every layer solved so far.
type solver struct {
	r  rules
	x  *index
	k  int
	lo [][]uint8  // lo[n][pos]: lower bound of the mover's seeds
	hi [][]uint8  // hi[n][pos]: upper bound
	rk [][]uint16 // rk[n][pos]: the round at which hi last changed (capped)
	// cache holds the current layer's moves, P slots a board (see pack);
	// own the mover's row seeds of each board.
	cache []uint64
	own   []uint8
	// moved[br] is 1 when a bound of board br changed in the last round
	// (prev) or in this one (cur): a board none of whose children in the
	// layer moved cannot change, and is skipped.
	prev, cur []uint8
	opt       Options
}

// Build solves every position with at most k seeds on the board under rules
// r. It stops early, returning ctx's error, when ctx is cancelled.
func Build(ctx context.Context, r env.Rules, k int, opt Options) (*Table, []LayerStats, error) {
	c, err := compile(r)
	if err != nil {
		return nil, nil, err
	}
	if k < 0 || k > MaxSeeds {
		return nil, nil, fmt.Errorf("tablebase: max seeds %d is out of range (0 to %d)", k, MaxSeeds)
	}
	if k > r.Total() {
		return nil, nil, fmt.Errorf("tablebase: max seeds %d exceeds the %d seeds the rules play with", k, r.Total())
	}
	if opt.MemoryLimit > 0 {
		e, err := EstimateBuild(r, k)
		if err != nil {
			return nil, nil, err
		}
		if e.PeakBytes > opt.MemoryLimit {
			return nil, nil, fmt.Errorf("tablebase: K=%d needs about %.1f GiB to build (%d positions), over the limit of %.1f GiB",
				k, float64(e.PeakBytes)/(1<<30), e.Positions, float64(opt.MemoryLimit)/(1<<30))
		}
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.NumCPU()
	}
	s := &solver{r: c, x: newIndex(c.n, k), k: k, opt: opt,
		lo: make([][]uint8, k+1), hi: make([][]uint8, k+1), rk: make([][]uint16, k+1)}
	var total uint64
	for n := 0; n <= k; n++ {
		total += s.x.boards(n) * uint64(c.slots(n))
	}
	var stats []LayerStats
	var done uint64
	for n := 0; n <= k; n++ {
		st, err := s.layer(ctx, n, done, total)
		if err != nil {
			return nil, nil, err
		}
		done += s.x.boards(n) * uint64(c.slots(n))
		stats = append(stats, st)
	}
	rw := 1
	for _, st := range stats {
		if st.MaxRank > 255 {
			rw = 2
		}
	}
	t := newTable(r, c, k, rw)
	t.data = s.encode(t)
	t.index()
	s.lo, s.hi, s.rk = nil, nil, nil
	if opt.StoreMoves {
		last := time.Now()
		stored, err := t.analyse(ctx, opt.Workers, func(n int, done uint64) {
			if opt.Progress != nil {
				opt.Progress(Progress{Seeds: n, Done: done, Total: total, LayerDone: true, Moves: true})
			}
			now := time.Now()
			stats[n].MovesTime = now.Sub(last)
			last = now
		})
		if err != nil {
			return nil, nil, err
		}
		t.analysis = stored
	}
	return t, stats, nil
}

// layer solves the positions with n seeds by value iteration: the lower
// bounds start at 0 and rise, the upper bounds start at n and fall, until
// a round changes nothing.
func (s *solver) layer(ctx context.Context, n int, done, total uint64) (LayerStats, error) {
	start := time.Now()
	slots := s.r.slots(n)
	size := s.x.boards(n) * uint64(slots)
	lo, hi := make([]uint8, size), make([]uint8, size)
	lo2, hi2 := make([]uint8, size), make([]uint8, size)
	rk := make([]uint16, size)
	for i := range hi {
		hi[i] = uint8(n)
	}
	s.lo[n], s.hi[n], s.rk[n] = lo, hi, rk
	s.cache = make([]uint64, s.x.boards(n)*uint64(s.r.p))
	s.own = make([]uint8, s.x.boards(n))
	s.prev, s.cur = make([]uint8, s.x.boards(n)), make([]uint8, s.x.boards(n))
	defer func() { s.cache, s.own, s.prev, s.cur = nil, nil, nil, nil }()
	st := LayerStats{Seeds: n}
	for round := 1; ; round++ {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		changed := s.round(n, round, lo, hi, lo2, hi2, rk)
		lo, hi, lo2, hi2 = lo2, hi2, lo, hi
		s.lo[n], s.hi[n] = lo, hi
		s.prev, s.cur = s.cur, s.prev
		st.Rounds = round
		if s.opt.Progress != nil {
			s.opt.Progress(Progress{Seeds: n, Round: round, Changed: changed, Done: done, Total: total, LayerDone: changed == 0})
		}
		if changed == 0 {
			break
		}
		if round == MaxRank {
			return st, fmt.Errorf("tablebase: layer %d needs more than %d rounds", n, MaxRank)
		}
	}
	var b [16]uint8
	for r := uint64(0); r < s.x.boards(n); r++ {
		if r == 0 {
			s.x.unrank(0, n, &b)
		} else {
			s.x.next(&b)
		}
		if !s.r.valid(&b) {
			continue
		}
		for j := 0; j < slots; j++ {
			i := r*uint64(slots) + uint64(j)
			st.Positions++
			if lo[i] == hi[i] {
				st.Exact++
			}
			st.MaxRank = max(st.MaxRank, int(rk[i]))
		}
	}
	st.Time = time.Since(start)
	return st, nil
}

// chunk is the number of boards a worker takes at a time.
const chunk = 4096

// round computes one round of the Bellman update from (lo, hi) into
// (lo2, hi2) and returns the number of positions that changed.
func (s *solver) round(n, round int, lo, hi, lo2, hi2 []uint8, rk []uint16) uint64 {
	boards := s.x.boards(n)
	var next atomic.Uint64
	var changed atomic.Uint64
	var wg sync.WaitGroup
	for w := 0; w < s.opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var local uint64
			for {
				first := next.Add(chunk) - chunk
				if first >= boards {
					break
				}
				last := min(first+chunk, boards)
				local += s.boards(n, round, first, last, lo, hi, lo2, hi2, rk)
			}
			changed.Add(local)
		}()
	}
	wg.Wait()
	return changed.Load()
}

// move is one legal action's outcome from a board, shared by its slots.
type move struct {
	captured int
	layer    int    // seeds on the board after the move
	child    uint64 // board rank of the child, in its mover's frame
	row      int    // seeds left in the (parent) mover's row after the move
}

// noMove fills the unused move slots of a board in the cache.
const noMove = ^uint64(0)

// pack and unpack store a move in the per-layer cache: the child's board
// rank in the low 48 bits, the seeds captured and the mover's row above.
func pack(m move) uint64 {
	return m.child | uint64(m.captured)<<48 | uint64(m.row)<<56
}

func unpack(v uint64, n int) move {
	k := int(v >> 48 & 0xff)
	return move{child: v & (1<<48 - 1), captured: k, layer: n - k, row: int(v >> 56)}
}

// boards updates the boards of ranks first … last-1 in layer n. The first
// round generates the moves and keeps them in s.cache (P slots a board);
// later rounds read them back.
func (s *solver) boards(n, round int, first, last uint64, lo, hi, lo2, hi2 []uint8, rk []uint16) uint64 {
	r := &s.r
	slots := uint64(r.slots(n))
	var b [16]uint8
	var moves [MaxPits]move
	var changed uint64
	p := uint64(r.p)
	if round == 1 {
		s.x.unrank(first, n, &b)
	}
	for br := first; br < last; br++ {
		base := br * slots
		if round > 1 {
			settled := true
			for j := uint64(0); j < slots; j++ {
				if lo[base+j] != hi[base+j] {
					settled = false
					break
				}
			}
			if settled || (round > 2 && !s.childMoved(br, n)) { // final, or no input changed
				copy(lo2[base:base+slots], lo[base:base+slots])
				copy(hi2[base:base+slots], hi[base:base+slots])
				s.cur[br] = 0
				continue
			}
		}
		nm := 0
		own := 0
		if round == 1 {
			if br > first {
				s.x.next(&b)
			}
			legal := r.legal(&b)
			cache := s.cache[br*p : br*p+p]
			for a := 0; a < r.p; a++ {
				cache[a] = noMove
				if legal>>uint(a)&1 == 0 {
					continue
				}
				c := b
				k := r.play(&c, a)
				m := &moves[nm]
				m.captured, m.layer, m.row = k, n-k, r.rowSeeds(&c, 0)
				r.flip(&c)
				m.child = s.x.rank(&c, n-k)
				cache[nm] = pack(*m)
				nm++
			}
			own = r.rowSeeds(&b, 0)
			s.own[br] = uint8(own)
		} else {
			for _, v := range s.cache[br*p : br*p+p] {
				if v == noMove {
					break
				}
				moves[nm] = unpack(v, n)
				nm++
			}
			own = int(s.own[br])
		}
		moved := uint8(0)
		for j := uint64(0); j < slots; j++ {
			i := base + j
			var bl, bu int
			if nm == 0 {
				bl, bu = own, own // no legal move: each side keeps its row
			} else {
				bl, bu = s.evaluate(n, int(j), moves[:nm], lo, hi)
			}
			lo2[i], hi2[i] = uint8(bl), uint8(bu)
			if lo2[i] != lo[i] || hi2[i] != hi[i] {
				changed++
				moved = 1
			}
			if hi2[i] != hi[i] {
				rk[i] = uint16(round)
			}
		}
		s.cur[br] = moved
	}
	return changed
}

// childMoved reports whether a child of board br in layer n (a move that
// captures nothing) changed in the last round. Only then can br change in
// this one: the update reads nothing else that can change.
func (s *solver) childMoved(br uint64, n int) bool {
	p := uint64(s.r.p)
	for _, v := range s.cache[br*p : br*p+p] {
		if v == noMove {
			break
		}
		if v>>48&0xff == 0 && s.prev[v&(1<<48-1)] != 0 {
			return true
		}
	}
	return false
}

// evaluate returns the best lower and upper bound over moves for slot j of
// a board in layer n, reading the layer's current bounds from lo and hi.
func (s *solver) evaluate(n, j int, moves []move, lo, hi []uint8) (bl, bu int) {
	r := &s.r
	bl, bu = -1, -1
	for i := range moves {
		m := &moves[i]
		var pl, pu int
		if m.captured == 0 {
			c := m.child
			if r.majority {
				c = c*uint64(n+1) + uint64(n-j)
			}
			pl, pu = n-int(hi[c]), n-int(lo[c])
		} else if v, ended := r.majorityEnd(n, j, m); ended {
			pl, pu = v, v
		} else {
			c := m.child
			if r.majority {
				c = c*uint64(m.layer+1) + uint64(r.half-(r.half-n+j)-m.captured)
			}
			pl = m.captured + m.layer - int(s.hi[m.layer][c])
			pu = m.captured + m.layer - int(s.lo[m.layer][c])
		}
		bl, bu = max(bl, pl), max(bu, pu)
	}
	return bl, bu
}

// majorityEnd reports whether capture move m, played in slot j of layer n,
// ends the game on a majority, and the mover's seeds if it does: what it
// captured plus its row.
func (r *rules) majorityEnd(n, j int, m *move) (int, bool) {
	if !r.majority {
		return 0, false
	}
	s := r.half - n + j + m.captured // the mover's store after the capture
	opp := r.total - (r.half - n + j) - n
	if s > r.half || (s == r.half && opp == r.half) {
		return m.captured + m.row, true
	}
	return 0, false
}

// valid reports whether no pit of b is over capacity.
func (r *rules) valid(b *[16]uint8) bool {
	for i := 0; i < r.n; i++ {
		if b[i] > r.capacity {
			return false
		}
	}
	return true
}
