package network_test

import (
	"context"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

// shippedModel is the network the repository ships (models/README.md).
const shippedModel = "../../models/urim-az.ckpt"

// TestShippedModelPlays loads models/urim-az.ckpt through the agent specs and
// plays whole games with it, as az and as neural: every move legal, every
// game finished, and the searched network beating random from both seats.
func TestShippedModelPlays(t *testing.T) {
	g := env.MustGame(env.Urim)
	az := "az:ckpt=" + shippedModel + ",sims=64"
	neural := "neural:ckpt=" + shippedModel
	for _, c := range []struct {
		south, north string
		winner       int // -1: any result
	}{
		{az, neural, -1},
		{neural, az, -1},
		{az, "random", 0}, // the network wins from South (models/README.md: 100% against random)
		{"random", az, 1}, // and from North
	} {
		var players [2]agents.Agent
		for i, spec := range []string{c.south, c.north} {
			a, err := agents.New(spec, uint64(7+i))
			if err != nil {
				t.Fatalf("%s: %v", spec, err)
			}
			defer agents.Close(a)
			players[i] = a
		}
		moves := 0
		end, err := agents.PlayGame(context.Background(), g.Start(), players, func(e agents.MoveEvent) error {
			if !e.Before.Legal().Has(e.Action) {
				t.Errorf("%s vs %s: ply %d: illegal action %d", c.south, c.north, e.Ply, e.Action)
			}
			moves++
			return nil
		})
		if err != nil {
			t.Fatalf("%s vs %s: %v", c.south, c.north, err)
		}
		if !end.Terminal() || moves == 0 {
			t.Fatalf("%s vs %s: the game stopped after %d moves, unfinished", c.south, c.north, moves)
		}
		if c.winner >= 0 && end.Winner() != c.winner {
			t.Errorf("%s vs %s: winner %d, want %d (final stores %v)", c.south, c.north, end.Winner(), c.winner, end.FinalStores())
		}
	}
}
