package dataset

import (
	"fmt"

	"github.com/urim-rl/urim/env"
)

// PackedChecker checks packed shards (Pack) with the checks of [Verify]: the
// arrays and records agree, no game id is there twice, and every game
// replays through the rules engine to its stored observations, masks,
// actions, policy targets (in [0, 1] on legal moves, summing to 1), root
// values (in [-1, 1]), outcomes and result. A shard from another process
// passes it before anything is trained on it.
type PackedChecker struct {
	d   Dataset
	dim int
}

// NewPackedChecker returns a checker of shards played under rules, with
// observations of encoding enc and outcomes of kind reward.
func NewPackedChecker(rules env.Rules, enc env.Encoding, reward env.RewardKind) (*PackedChecker, error) {
	g, err := env.NewGame(rules)
	if err != nil {
		return nil, err
	}
	a := g.PitsPerRow()
	return &PackedChecker{d: Dataset{Manifest: &Manifest{Rules: rules, Actions: a}, game: g, enc: enc, reward: reward},
		dim: env.NewEncoder(g, enc).Dim()}, nil
}

// Unpack decodes a packed shard as [Unpack] does and checks it; the error
// names the first problem (wrapping ErrSchema or ErrReplay).
func (c *PackedChecker) Unpack(data []byte) ([]Game, error) {
	t, recs, games, err := unpack(data, c.dim, c.d.Manifest.Actions)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSchema, err)
	}
	ids := make(map[int64]bool, len(recs))
	for _, r := range recs {
		if ids[r.ID] {
			return nil, fmt.Errorf("%w: game %d is in the shard twice", ErrSchema, r.ID)
		}
		ids[r.ID] = true
	}
	sh := &Shard{Info: ShardInfo{Tensors: "the shard's arrays", Games: "the shard's records", NumGames: len(recs), Positions: t.N},
		Records: recs, Tensors: t}
	if err := sh.checkCounts(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSchema, err)
	}
	if err := c.d.replayShard(sh); err != nil {
		return nil, err
	}
	return games, nil
}
