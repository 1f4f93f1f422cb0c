package alphazero

import (
	"math"
	"math/rand/v2"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
	"github.com/urim-rl/urim/tablebase"
)

// SampledPlies bounds the ply a table sample is given (uniform in 0 …
// SampledPlies−1): the table's values do not depend on it (tables need
// rules without a ply cap), so the network learns that they do not, and
// sees table positions at the plies real endgames have as well as at the
// ply 0 that `urim eval accuracy` draws.
const SampledPlies = 200

// tableSampler draws training rows straight from the endgame table
// (training.tablebase_sample): a position with a seed count uniform over
// from … K (training.tablebase_sample_min_seeds; 1 … K, the distribution
// `urim eval accuracy` scores, by default), uniform within it
// (tablebase.Table.Sample), with the table's value as the value target,
// its best moves (the position's, with only itself as history) as a
// uniform policy target and, for a score head (a batch with a Margin
// column), its exact margin as the score target (classic.TableMargin). Positions the table does not hold exactly, and
// finished ones, are drawn again. It allocates nothing: it runs in every
// training step.
type tableSampler struct {
	t      *tablebase.Table
	g      *env.Game
	enc    *env.Encoder
	reward env.RewardKind
	share  float64
	from   int // the fewest seeds of a sample (0 and 1: every layer)
}

// rows returns how many rows of a batch of n the table fills.
func (ts *tableSampler) rows(n int) int {
	if ts == nil {
		return 0
	}
	return min(int(math.Round(ts.share*float64(n))), n)
}

// fill writes rows from … dst.N−1 of dst from the table with rng's draws.
func (ts *tableSampler) fill(dst *nn.Batch, from int, rng *rand.Rand) {
	d, a := ts.enc.Dim(), ts.g.PitsPerRow()
	for r := from; r < dst.N; r++ {
		s, v, best := ts.draw(rng)
		ts.enc.Encode(dst.Obs[r*d:(r+1)*d], &s)
		legal, mask := s.Legal(), dst.Mask[r*a:(r+1)*a]
		for i := range mask {
			mask[i] = legal.Has(i)
		}
		uniformOver(dst.Policy[r*a:(r+1)*a], best)
		dst.Outcome[r] = v
		if dst.Margin != nil {
			// The table holds s exactly (draw): the margin is there too.
			dst.Margin[r], _ = classic.TableMargin(ts.t, &s)
		}
	}
}

// draw returns a position the table holds exactly, at a drawn ply, its
// value for the player to move and its best moves.
func (ts *tableSampler) draw(rng *rand.Rand) (env.State, float32, env.Mask) {
	lo := max(ts.from, 1) // 0 draws from every layer, as 1 does
	for {
		s, err := ts.t.Sample(ts.g, lo+rng.IntN(ts.t.MaxSeeds()-lo+1), rng)
		if err != nil {
			panic(err) // the seed count is in range and a table's positions parse
		}
		var pits [16]uint8
		for i := range 2 * ts.g.PitsPerRow() {
			pits[i] = uint8(s.Pit(i))
		}
		s, err = ts.g.NewPosition(&pits, [2]uint8{uint8(s.Store(0)), uint8(s.Store(1))}, s.ToMove(), uint32(rng.IntN(SampledPlies)))
		if err != nil {
			panic(err)
		}
		if v, best, ok := classic.TableTarget(ts.t, &s, ts.reward, true); ok && best != 0 {
			return s, v, best
		}
	}
}
