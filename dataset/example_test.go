package dataset_test

import (
	"context"
	"fmt"
	"os"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/env"

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)

// A training loop records its own games: one Recorder per game in play, a
// Writer for the dataset. Here the "search" is a uniform policy over the
// legal moves and the lowest legal move is played.
func ExampleWriter() {
	dir, _ := os.MkdirTemp("", "urim-dataset-example")
	defer os.RemoveAll(dir)

	g := env.MustGame(env.Urim)
	w, err := dataset.Create(dir, dataset.Options{Rules: env.Urim, Config: map[string]string{"run": "example"}})
	if err != nil {
		panic(err)
	}
	rec := dataset.NewRecorder(g, env.EncodingCompact, env.RewardMatchPoints)
	for id := range int64(3) {
		s := g.Start()
		rec.Start(id, uint64(id), [2]string{"example", "example"}, nil)
		for !s.Terminal() {
			var sr dataset.Search
			for _, a := range s.Legal().Actions() {
				sr.Policy[a] = 1 / float32(s.Legal().Count())
			}
			a := s.Legal().Nth(0)
			rec.Add(&s, a, &sr)
			s.Play(a)
		}
		if err := w.Add(rec.Finish(&s)); err != nil {
			panic(err)
		}
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	rep, err := dataset.Verify(context.Background(), dir, nil)
	fmt.Println(rep.Games, "games,", rep.Positions, "positions, verified:", err == nil)
	// Output: 3 games, 186 positions, verified: true
}
