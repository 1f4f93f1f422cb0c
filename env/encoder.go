package env

import "fmt"

// Encoder writes the observation row of one position, seen by its player to
// move, in one [Encoding]. It is the single place observations are made: the
// [Vec], the neural agents, self-play recording and dataset export all encode
// through it, so a network sees the same columns wherever it plays. Its scales
// are computed once so encoding only looks up and multiplies; Encode does not
// allocate. An Encoder is read-only after NewEncoder and safe for concurrent
// use.
type Encoder struct {
	enc        Encoding
	p, dim     int
	pitScale   float32      // 1/S
	storeScale float32      // 1/T
	plyScale   float32      // 1/max_plies, or 1/vecPlyScale without a cap
	pitVal     [256]float32 // pitVal[n] = n/S
	therm      *[256][ThermometerLevels + 1]float32
}

// NewEncoder returns the encoder of e for positions of game g.
func NewEncoder(g *Game, e Encoding) *Encoder {
	c := &Encoder{
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

// Dim returns the number of columns of a row: Encoding.Dim of its game.
func (c *Encoder) Dim() int { return c.dim }

// Encoding returns the encoding c writes.
func (c *Encoder) Encoding() Encoding { return c.enc }

// Encode writes the observation of s, seen by its player to move, into
// dst[:Dim()]. It panics if dst is shorter than Dim().
func (c *Encoder) Encode(dst []float32, s *State) {
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
