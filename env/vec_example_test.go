package env_test

import (
	"fmt"

	"github.com/urim-rl/urim/env"
)

// ExampleVec steps two games of Urim and reads the batch tensors. Each
// observation row is seen from the player to move: after South's first
// move, game 0's row starts with North's pits.
func ExampleVec() {
	v, err := env.NewVec(env.MustGame(env.Urim), 2, env.VecOptions{Workers: 1})
	if err != nil {
		panic(err)
	}
	defer v.Close()
	fmt.Println("obs dim", v.ObsDim(), "actions", v.Actions())

	// South sows pit 0 in game 0 and pit 5 in game 1.
	if err := v.Step([]int32{0, 5}); err != nil {
		panic(err)
	}
	d, p := v.ObsDim(), v.Actions()
	fmt.Println("to move", v.ToMove())
	fmt.Printf("game 1 obs %.3g\n", v.Obs()[d:2*d])
	fmt.Println("game 1 mask", v.Mask()[p:2*p])

	// An illegal action is an error naming the game and the legal actions.
	fmt.Println(v.Step([]int32{7, 0}))
	// Output:
	// obs dim 17 actions 6
	// to move [1 1]
	// game 1 obs [1.33 1.33 1.33 1 1 1 1 1 1 1 1 0 0 0 0.00391 0.0156 1]
	// game 1 mask [1 1 1 1 1 1]
	// env: Vec.Step: game 0: illegal action 7, out of range 0..5 (legal: [0 1 2 3 4 5])
}

// ExampleVec_episodes plays random games with the same-step auto-reset and
// drains the episode records after every step.
func ExampleVec_episodes() {
	v, err := env.NewVec(env.MustGame(env.Urim), 8, env.VecOptions{
		Workers:      2,
		Seed:         1,
		OpeningPlies: 4,
		AutoReset:    env.AutoResetSameStep,
	})
	if err != nil {
		panic(err)
	}
	defer v.Close()
	actions := make([]int32, v.Len())
	rng := uint64(2024)
	var all []env.Episode
	for len(all) < 3 {
		env.RandomActions(actions, v.Legal(), &rng)
		if err := v.Step(actions); err != nil {
			panic(err)
		}
		all = append(all, v.Episodes()...)
		v.ClearEpisodes()
	}
	for _, e := range all[:3] {
		fmt.Printf("game %d: %d plies, stores %v, match points %v, %s\n",
			e.Game, e.Plies, e.Stores, e.MatchPoints, e.ReasonName())
	}
	// Output:
	// game 1: 49 plies, stores [21 15], match points [1 0], no_legal_move
	// game 0: 85 plies, stores [7 29], match points [0 2], no_legal_move
	// game 2: 97 plies, stores [16 20], match points [0 1], no_legal_move
}

// ExampleEncoding_Columns lists the compact encoding's columns for the
// 2×6 board.
func ExampleEncoding_Columns() {
	fmt.Println(env.EncodingCompact.Columns(env.MustGame(env.Urim)))
	// Output:
	// [own_pit_0 own_pit_1 own_pit_2 own_pit_3 own_pit_4 own_pit_5 opp_pit_0 opp_pit_1 opp_pit_2 opp_pit_3 opp_pit_4 opp_pit_5 own_store opp_store ply quiet north_to_move]
}
