package env

import "strconv"

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

// vecBoolRows holds, for every mask, its bool row as the bytes of a word
// (byte a is 1 where action a is legal).
var vecBoolRows = func() (t [1 << MaxActions]uint64) {
	for m := range t {
		for a := range MaxActions {
			t[m] |= uint64(m>>a&1) << (8 * a)
		}
	}
	return t
}()
