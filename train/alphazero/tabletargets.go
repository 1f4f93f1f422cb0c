package alphazero

import (
	"fmt"
	"path/filepath"

	"github.com/urim-rl/urim/agents/classic"
	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/tablebase"
)

// tableTargets replaces the training targets of the positions an endgame
// table holds exactly (training.tablebase): the value target becomes the
// table's value for the player to move, the score target (when the rows
// have margins) the table's exact margin, and with policy the policy target
// becomes uniform over the table's best moves. Rows are replaced as they
// enter the replay window, from their games replayed move by move, so the
// datasets on disk keep the games' outcomes (and still verify).
type tableTargets struct {
	t      *tablebase.Table
	g      *env.Game
	reward env.RewardKind
	policy bool
}

// apply replaces the targets of rows lo … hi−1 of c, the rows of the game
// rec in ply order, and returns how many it replaced. a is the number of
// actions.
func (tt *tableTargets) apply(rec *dataset.Record, c *dataset.Columns, lo, hi, a int) int {
	if tt == nil || lo >= hi {
		return 0
	}
	n := 0
	s := tt.g.Start()
	row := lo
	for ply := 0; row < hi; ply++ {
		for row < hi && int(c.Ply[row]) == ply {
			if c.HasPolicy[row] {
				if v, best, ok := classic.TableTarget(tt.t, &s, tt.reward, tt.policy); ok {
					c.Outcome[row] = v
					if c.Margin != nil {
						c.Margin[row], _ = classic.TableMargin(tt.t, &s)
					}
					if tt.policy {
						uniformOver(c.Policy[row*a:(row+1)*a], best)
					}
					n++
				}
			}
			row++
		}
		if ply >= len(rec.Moves) || s.Terminal() {
			break // rows past the record's moves: left as they are
		}
		s.Play(rec.Moves[ply])
	}
	return n
}

// shard replaces the targets of every game of a shard read from dir, whose
// tensors are t and whose games' records, read from its games file, are
// recs.
func (tt *tableTargets) shard(dir string, info dataset.ShardInfo, recs []dataset.Record, t *dataset.Tensors) (int, error) {
	if tt == nil {
		return 0, nil
	}
	n, row := 0, 0
	for i := range recs {
		hi := row + recs[i].Positions
		if hi > t.N {
			return n, fmt.Errorf("train: replay window: table targets: %s: the games have more positions than the %d rows", filepath.Join(dir, info.Games), t.N)
		}
		n += tt.apply(&recs[i], &t.Columns, row, hi, t.Actions)
		row = hi
	}
	return n, nil
}

// uniformOver writes into p the policy target of a table's best moves: the
// uniform distribution over the actions of best.
func uniformOver(p []float32, best env.Mask) {
	k := float32(best.Count())
	for i := range p {
		p[i] = 0
		if best.Has(i) {
			p[i] = 1 / k
		}
	}
}
