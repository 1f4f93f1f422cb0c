package env

// Game is a validated, compiled [Rules] value: the lookup masks and constants
// the hot path reads. A Game is immutable and safe for concurrent use; every
// [State] points to the Game it is played under.
type Game struct {
	rules    Rules
	p        int    // pits per row
	n        int    // pits on the board, 2p
	total    int    // T
	capacity uint8  // largest count a pit may hold (255 when unlimited)
	trigger  uint64 // bit c set: a last seed making c starts a capture
	chain    uint64 // bit c set: a pit holding c extends the capture
	slamOK   bool   // a grand slam captures (false: it captures nothing)
	majority bool   // end as soon as a store holds more than T/2
	maxPlies int
	rowBytes uint64 // the low P bytes set: one row read as a word
	// sowWords: no pit can hold 128 seeds, so sowing may add to the board
	// as words (sowPits); fullAdd is 128 - capacity in every byte, or 0
	// when no pit can reach the capacity.
	sowWords bool
	fullAdd  uint64
	// majorityAt is the store that ends the game under EndOnMajority: T/2+1.
	majorityAt int
	start      State
}

// NewGame validates r and compiles it.
func NewGame(r Rules) (*Game, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	g := &Game{
		rules:      r,
		p:          r.PitsPerRow,
		n:          2 * r.PitsPerRow,
		total:      r.Total(),
		capacity:   255,
		slamOK:     r.GrandSlam == GrandSlamCapture,
		majority:   r.EndOnMajority,
		maxPlies:   r.MaxPlies,
		majorityAt: r.Total()/2 + 1,
		rowBytes:   1<<(8*uint(r.PitsPerRow)) - 1,
	}
	g.rules.Trigger = append([]int(nil), r.Trigger...)
	g.rules.Chain = append([]int(nil), r.Chain...)
	if r.Capacity > 0 {
		g.capacity = uint8(r.Capacity)
	}
	g.sowWords = g.total < 128
	if int(g.capacity) <= g.total {
		g.fullAdd = 0x0101010101010101 * uint64(128-int(g.capacity))
	}
	for _, c := range r.Trigger {
		g.trigger |= 1 << uint(c)
	}
	for _, c := range r.Chain {
		g.chain |= 1 << uint(c)
	}
	s := State{g: g}
	for i := 0; i < g.n; i++ {
		s.pits[i] = uint8(r.SeedsPerPit)
	}
	s.settle(-1, false)
	g.start = s
	return g, nil
}

// MustGame is NewGame for rules known to be valid, such as the presets; it
// panics on an invalid value.
func MustGame(r Rules) *Game {
	g, err := NewGame(r)
	if err != nil {
		panic(err)
	}
	return g
}

// Preset returns the compiled game of the named preset.
func Preset(name string) (*Game, error) {
	r, err := PresetRules(name)
	if err != nil {
		return nil, err
	}
	return NewGame(r)
}

// Rules returns the rules g was built from.
func (g *Game) Rules() Rules {
	r := g.rules
	r.Trigger = append([]int(nil), g.rules.Trigger...)
	r.Chain = append([]int(nil), g.rules.Chain...)
	return r
}

// Name is the rules' name.
func (g *Game) Name() string { return g.rules.Name }

// PitsPerRow is P, which is also the number of actions.
func (g *Game) PitsPerRow() int { return g.p }

// Pits is the number of pits on the board, 2P.
func (g *Game) Pits() int { return g.n }

// Total is T, the number of seeds in play.
func (g *Game) Total() int { return g.total }

// Start returns the starting position: S seeds in every pit, player 0 to move.
func (g *Game) Start() State { return g.start }
