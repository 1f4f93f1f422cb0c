package alphazero

import (
	"context"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/train"
)

// Play plays games self-play games of session s's config with its network,
// as iteration it's self-play does (its simulation schedule; the seeds and
// openings of chunk where an iteration's self-play has its number), for a
// worker of a distributed run, without a training tablebase: emit receives each game (resigned or not) as it finishes, so that it
// can leave at once; an error from emit stops the games. It returns the
// positions played.
func Play(ctx context.Context, s *train.Session, it, chunk, games int, emit func(*dataset.Game) error) (int, error) {
	cfg := *s.Config
	sp := SelfPlaySection.Of(&cfg)
	sp.GamesPerIteration = games
	SelfPlaySection.Set(&cfg, sp)
	s2 := *s
	s2.Config = &cfg
	open := openings{g: s.Game, plies: sp.OpeningPlies, seed: cfg.Seed, it: chunk}
	ls, err := newSearcher(&s2, it, open, nil, s.Seed(0x736561726368, uint64(chunk)))
	if err != nil {
		return 0, err
	}
	sk := &funcSink{emit: emit}
	st, err := selfPlay(ctx, &cfg, s.Game, s.Encoding, s.Reward, ls, open, sk, nil, chunk, 0, nil)
	if st == nil {
		return 0, err
	}
	return st.positions, err
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
