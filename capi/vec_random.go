package capi

import (
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/internal/splitmix"
)

// drawSeed derives the stream of RandomActions from a Vec seed (a constant
// apart from the illegal fallback's, so the two streams differ).
func drawSeed(seed uint64) uint64 { return splitmix.Mix(seed ^ 0x72616e646f6d) }

// RandomActions writes into dst one uniformly random legal action per game
// (env.RandomActions, the draw of `urim bench env`'s loop), 0 for a game
// with no legal action. reset with a seed restarts its stream.
func (e *VecEnv) RandomActions(dst []int32) error {
	if e.v == nil {
		return ErrClosedObject
	}
	if len(dst) != e.cfg.N {
		return Errorf(ErrArg, "capi: %d actions for %d games", len(dst), e.cfg.N)
	}
	env.RandomActions(dst, e.v.Legal(), &e.draw)
	return nil
}
