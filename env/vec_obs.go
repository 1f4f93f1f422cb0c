package env

import (
	"fmt"
	"strconv"
)

// Encoding selects how a [Vec] turns a position into a row of float32
// observation columns. Every encoding sees the board from the player to
// move: its own pits first, in sowing order (column block a is action a),
// then the opponent's pits in sowing order, then the stores (own, then the
// opponent's), then features of the game's progress. docs/tensors.md lists
// every column; [Encoding.Columns] names them.
type Encoding uint8

const (
	// EncodingCompact (the default) has one column per pit, the seeds
	// divided by the seeds per pit at the start S (so the start position
	// reads 1), then the tail columns; 2P+5 columns in all.
	EncodingCompact Encoding = iota
	// EncodingThermometer gives each pit ThermometerLevels columns, the k-th
	// (from 1) being 1 when the pit holds at least k seeds, and one more
	// column with the seeds above ThermometerLevels divided by S, then the
	// tail columns; 2P·(ThermometerLevels+1)+5 columns in all. Counts become
	// step features, which small networks learn from more easily.
	EncodingThermometer
)

// ThermometerLevels is the number of at-least-k columns per pit in
// EncodingThermometer. 12 covers nearly every count in play; the excess
// column carries the rest exactly.
const ThermometerLevels = 12

// vecTail is the number of columns after the pits in every encoding: own
// store, opponent's store, ply, quiet plies, North to move.
const vecTail = 5

// vecPlyScale and vecQuietScale divide the ply and the plies since the last
// capture; both columns saturate at 1. With a ply cap, the ply column is
// divided by the cap instead, so it reads the fraction of the game used.
const (
	vecPlyScale   = 256
	vecQuietScale = 64
)

var encodingNames = []string{"compact", "thermometer"}

// String returns the encoding's config name: compact or thermometer.
func (e Encoding) String() string { return vecName(encodingNames, uint8(e), "Encoding") }

// ParseEncoding maps a config name (compact, thermometer) to its encoding.
func ParseEncoding(name string) (Encoding, error) {
	i, err := vecParseName("observation encoding", encodingNames, name)
	return Encoding(i), err
}

// pitWidth is the number of columns per pit.
func (e Encoding) pitWidth() int {
	if e == EncodingThermometer {
		return ThermometerLevels + 1
	}
	return 1
}

// Dim returns the number of observation columns of e for game g.
func (e Encoding) Dim(g *Game) int { return g.n*e.pitWidth() + vecTail }

// Columns names the observation columns of e for game g, in order, as
// docs/tensors.md lists them: own_pit_A and opp_pit_A in the compact
// encoding, own_pit_A_geK and own_pit_A_excess (and opp_…) in the
// thermometer encoding, then own_store, opp_store, ply, quiet,
// north_to_move.
func (e Encoding) Columns(g *Game) []string {
	cols := make([]string, 0, e.Dim(g))
	for _, side := range []string{"own", "opp"} {
		for a := 0; a < g.p; a++ {
			pit := side + "_pit_" + strconv.Itoa(a)
			if e != EncodingThermometer {
				cols = append(cols, pit)
				continue
			}
			for k := 1; k <= ThermometerLevels; k++ {
				cols = append(cols, pit+"_ge"+strconv.Itoa(k))
			}
			cols = append(cols, pit+"_excess")
		}
	}
	return append(cols, "own_store", "opp_store", "ply", "quiet", "north_to_move")
}

// vecEncoder writes observation rows for one game and encoding. Its scales
// are computed once so the hot path only multiplies.
type vecEncoder struct {
	enc        Encoding
	p, dim     int
	pitScale   float32      // 1/S
	storeScale float32      // 1/T
	plyScale   float32      // 1/max_plies, or 1/vecPlyScale without a cap
	pitVal     [256]float32 // pitVal[n] = n/S
	therm      *[256][ThermometerLevels + 1]float32
}

func newVecEncoder(g *Game, e Encoding) *vecEncoder {
	c := &vecEncoder{
		enc:        e,
		p:          g.p,
		dim:        e.Dim(g),
		pitScale:   1 / float32(g.rules.SeedsPerPit),
		storeScale: 1 / float32(g.total),
		plyScale:   1.0 / vecPlyScale,
	}
	if g.maxPlies > 0 {
		c.plyScale = 1 / float32(g.maxPlies)
	}
	for n := range c.pitVal {
		c.pitVal[n] = float32(n) * c.pitScale
	}
	if e == EncodingThermometer {
		// One precomputed block per possible count: a row is then P copies.
		c.therm = new([256][ThermometerLevels + 1]float32)
		for n := range c.therm {
			for k := 0; k < ThermometerLevels; k++ {
				if n > k {
					c.therm[n][k] = 1
				}
			}
			c.therm[n][ThermometerLevels] = float32(max(n-ThermometerLevels, 0)) * c.pitScale
		}
	}
	return c
}

// encode writes the observation of s, seen by its player to move, into
// dst[:dim].
func (c *vecEncoder) encode(dst []float32, s *State) {
	p := c.p
	own := int(s.toMove) * p
	opp := p - own
	d := dst[:c.dim]
	pits := &s.pits
	switch c.enc {
	case EncodingCompact:
		// Table lookups beat int-to-float conversions here, and the masks
		// (own+a < 16) let the compiler drop the bounds checks.
		mine, theirs := d[:p], d[p:2*p]
		theirs = theirs[:len(mine)]
		val := &c.pitVal
		for a := range mine {
			mine[a] = val[pits[(own+a)&15]]
			theirs[a] = val[pits[(opp+a)&15]]
		}
	case EncodingThermometer:
		const w = ThermometerLevels + 1
		for a := 0; a < p; a++ {
			*(*[w]float32)(d[a*w:]) = c.therm[pits[(own+a)&15]]
			*(*[w]float32)(d[(p+a)*w:]) = c.therm[pits[(opp+a)&15]]
		}
	default:
		panic(fmt.Sprintf("env: unknown encoding %d", c.enc))
	}
	t := (*[vecTail]float32)(d[c.dim-vecTail:])
	t[0] = float32(s.stores[s.toMove&1]) * c.storeScale
	t[1] = float32(s.stores[(s.toMove^1)&1]) * c.storeScale
	t[2] = min(float32(s.ply)*c.plyScale, 1)
	t[3] = min(float32(s.Quiet())*(1.0/vecQuietScale), 1)
	t[4] = float32(s.toMove)
}

// vecMaskRows holds, for every mask, its float32 entries (1 where legal),
// padded to 8 so that a masked index needs no bounds check.
var vecMaskRows = func() (t [1 << MaxActions][8]float32) {
	for m := range t {
		for a := 0; a < MaxActions; a++ {
			t[m][a] = float32(m >> a & 1)
		}
	}
	return t
}()
