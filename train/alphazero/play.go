package alphazero

import (
	"context"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/train"
)

// playChunk is a worker's chunk of self-play (remotePart.Play): two
// lock-step batches of games (selfplay.parallel_games each, the worker's
// --games-in-lockstep when given) of session s's config with network
// version version, as iteration version+1's self-play plays them (its
// simulation schedule; the seeds and openings of chunk where an
// iteration's self-play has its number), without a training tablebase.
// emit receives each game (resigned or not) as it finishes, so that it can
// leave at once; an error from emit stops the games.
func playChunk(ctx context.Context, s *train.Session, version, chunk int, emit func(*dataset.Game) error) error {
	it := version + 1
	cfg := *s.Config
	sp := SelfPlaySection.Of(&cfg)
	sp.GamesPerIteration = 2 * sp.ParallelGames
	SelfPlaySection.Set(&cfg, sp)
	s2 := *s
	s2.Config = &cfg
	open := openings{g: s.Game, plies: sp.OpeningPlies, seed: cfg.Seed, it: chunk}
	ls, err := newSearcher(&s2, it, open, nil, s.Seed(0x736561726368, uint64(chunk)))
	if err != nil {
		return err
	}
	sk := &funcSink{emit: emit}
	_, err = selfPlay(ctx, &cfg, s.Game, s.Encoding, s.Reward, ls, open, sk, nil, chunk, 0, nil)
	return err
}

// funcSink is a failingSink of a function: its first error stops the
// games.
type funcSink struct {
	emit  func(*dataset.Game) error
	first error
}

func (f *funcSink) keep(g *dataset.Game) {
	if f.first == nil {
		f.first = f.emit(g)
	}
}

func (f *funcSink) err() error { return f.first }
