package evaluate

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/urim-rl/urim/env"
)

// Format is the shape of a tournament.
type Format string

const (
	// RoundRobin plays every pair of players.
	RoundRobin Format = "round_robin"
	// Gauntlet plays the first player against each of the others; the others
	// do not meet.
	Gauntlet Format = "gauntlet"
)

// DefaultGames is the number of games per pairing when Config.Games is 0.
const DefaultGames = 100

// Config describes a tournament. YAML files use the keys in the tags (see
// configs/bench-classical.yaml) and are read from [DefaultConfig]; the urim
// eval flags have the same names and defaults. In a Config built in code the
// zero value of every field but Agents is a sensible default.
type Config struct {
	// Setup holds the rules, openings, seed and workers, shared with SPRT
	// tests; its keys sit at the top level of a config file.
	Setup `yaml:",inline"`
	// Format is round_robin (the default) or gauntlet.
	Format Format `yaml:"format" json:"format"`
	// Agents are the players, at least two.
	Agents []Player `yaml:"agents" json:"agents"`
	// Games is the number of games per pairing; 0 means DefaultGames. Seats
	// alternate from game to game.
	Games int `yaml:"games" json:"games"`
	// Anchor names the player whose rating is fixed at AnchorElo; "" means
	// the player whose spec is "random" if there is one, else the first.
	Anchor    string  `yaml:"anchor" json:"anchor"`
	AnchorElo float64 `yaml:"anchor_elo" json:"anchor_elo"`
	// PriorDraws is passed to the Elo fit (EloOptions.PriorDraws): 0 means
	// DefaultPriorDraws, negative means none.
	PriorDraws float64 `yaml:"prior_draws" json:"prior_draws,omitempty"`
	// Store is a game store file; games found there are reused and new ones
	// added. "" keeps games in memory only.
	Store string `yaml:"store" json:"store,omitempty"`
	// Output is a directory for the reports ([WriteReports]); the library
	// does not write it, commands do. "" means none.
	Output string `yaml:"output" json:"output,omitempty"`

	// Remote, when set, plays the games in other processes instead of
	// Workers goroutines (every player must then travel: a spec, or for one
	// built in code its Remote spec). The results and the store are the
	// same as in one process.
	Remote Remote `yaml:"-" json:"-"`

	// Progress, when set, is called after every game played (not reused)
	// with the games done and the games to play, from one goroutine.
	Progress func(done, total int) `yaml:"-" json:"-"`
}

// DefaultConfig returns the tournament that config files and urim eval
// start from: [DefaultSetup], round robin, DefaultGames per pairing, no
// agents yet.
func DefaultConfig() Config {
	return Config{Setup: DefaultSetup(), Format: RoundRobin, Games: DefaultGames}
}

// Result is a finished tournament.
type Result struct {
	Config Config `json:"config"`
	// Players are the players' names in config order.
	Players []string `json:"players"`
	// Games holds every game of the tournament, reused ones included, by
	// pairing and then by index.
	Games []Record `json:"-"`
	// Played counts the games played by this run, Reused those taken from
	// the store.
	Played int `json:"played"`
	Reused int `json:"reused"`
	// Ratings are the fitted Elo ratings, Pairs the statistics of each
	// pairing from the first-listed player's side.
	Ratings *Ratings    `json:"ratings"`
	Pairs   []PairStats `json:"pairs"`
}

// Pairings returns the pairs of players (indices into Agents) that meet:
// every pair for a round robin, the first player against each other for a
// gauntlet.
func (c *Config) Pairings() [][2]int {
	var out [][2]int
	for i := range c.Agents {
		for j := i + 1; j < len(c.Agents); j++ {
			if c.Format == Gauntlet && i > 0 {
				break
			}
			out = append(out, [2]int{i, j})
		}
	}
	return out
}

// job is one game to play.
type job struct {
	players [2]Player
	names   [2]string // players by seat
	specs   [2]string // the players' keys by seat (canonical specs)
	seed    uint64
	index   int
	open    int // opening number
}

// openings hands out the tournament's openings, each drawn once and shared by
// every pairing and worker.
type openings struct {
	g     *env.Game
	plies int
	seed  uint64
	mu    sync.Mutex
	cache map[int][]int
}

func (o *openings) get(k int) []int {
	if o.plies == 0 {
		return []int{}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if m, ok := o.cache[k]; ok {
		return m
	}
	m := o.g.RandomOpening(o.plies, openingSeed(o.seed, k))
	if o.cache == nil {
		o.cache = map[int][]int{}
	}
	o.cache[k] = m
	return m
}

// pairJob returns game index of the pairing of players a and b. The player
// whose key (canonical spec) sorts first (the first listed when the keys are
// equal) takes South in even games; with paired openings games 2k and 2k+1
// share opening k, else game i has opening i.
func pairJob(a, b Player, seed uint64, index int, paired bool) job {
	sa, sb := a.key(), b.key()
	if sb < sa {
		a, b, sa, sb = b, a, sb, sa
	}
	j := job{players: [2]Player{a, b}, names: [2]string{a.Label(), b.Label()}, specs: [2]string{sa, sb},
		seed: GameSeed(seed, sa, sb, index), index: index, open: index}
	if index%2 == 1 {
		j.players[0], j.players[1] = j.players[1], j.players[0]
		j.names[0], j.names[1] = j.names[1], j.names[0]
		j.specs[0], j.specs[1] = j.specs[1], j.specs[0]
	}
	if paired {
		j.open = index / 2
	}
	return j
}

// storeSaveEvery is how often a long tournament saves its store, so that an
// interrupted run keeps most of its games.
const storeSaveEvery = 30 * time.Second

// RunTournament plays the tournament cfg describes and returns its result.
// Games found in cfg.Store are reused; the rest are played in parallel and
// added to it. The games depend only on cfg (seed, agents, rules, openings),
// never on the number of workers. If ctx is cancelled or a game fails, the
// games finished so far are still saved to the store, and the result
// returned with the error is not summarised: only its Played and Reused
// counts (how far the run got) are meaningful.
func RunTournament(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g, err := cfg.Game()
	if err != nil {
		return nil, err
	}
	var store *Store
	if cfg.Store != "" {
		lock, err := LockStore(cfg.Store)
		if err != nil {
			return nil, err
		}
		defer lock.Release()
		if store, err = OpenStore(cfg.Store); err != nil {
			return nil, err
		}
	}
	open := &openings{g: g, plies: cfg.OpeningPlies, seed: cfg.Seed}
	pairings := cfg.Pairings()
	if err := checkSize(cfg.Games, len(pairings)); err != nil {
		return nil, err
	}
	// Jobs are made when needed, not all up front.
	total := len(pairings) * cfg.Games
	jobAt := func(i int) job {
		p := pairings[i/cfg.Games]
		return pairJob(cfg.Agents[p[0]], cfg.Agents[p[1]], cfg.Seed, i%cfg.Games, cfg.Paired)
	}
	res := &Result{Config: cfg, Games: make([]Record, total)}
	for _, p := range cfg.Agents {
		res.Players = append(res.Players, p.Label())
	}
	rulesName, maxPlies := rulesKey(g.Name(), customRules(g.Rules())), g.Rules().MaxPlies
	var todo []int
	for i := range total {
		if store != nil {
			j := jobAt(i)
			if rec, ok := store.Lookup(gameKey(rulesName, maxPlies, j.specs, j.seed, open.get(j.open))); ok {
				rec.Players, rec.Index = j.names, j.index
				res.Games[i] = rec
				res.Reused++
				continue
			}
		}
		todo = append(todo, i)
	}

	lastSave := time.Now()
	deliver := func(k int, rec Record) bool {
		res.Games[todo[k]] = rec
		res.Played++
		if store != nil {
			store.Add(rec)
			if time.Since(lastSave) > storeSaveEvery {
				if err := store.Save(); err == nil {
					lastSave = time.Now()
				}
			}
		}
		if cfg.Progress != nil {
			cfg.Progress(res.Played, len(todo))
		}
		return false
	}
	if cfg.Remote != nil {
		err = playRemote(ctx, cfg.Remote, g, todo, jobAt, open, deliver)
	} else {
		err = runJobs(ctx, len(todo), cfg.workers(), false,
			func(ctx context.Context, k int) (Record, error) {
				j := jobAt(todo[k])
				return playJob(ctx, g, j, open.get(j.open))
			}, deliver)
	}
	if store != nil {
		if serr := store.Save(); serr != nil && err == nil {
			err = rescueStore(store, serr)
		}
	}
	if err != nil {
		return res, err // Played and Reused say how far it got
	}
	if err := res.summarize(); err != nil {
		return res, err
	}
	return res, nil
}

// summarize fills Ratings and Pairs from Games.
func (res *Result) summarize() error {
	cfg := &res.Config
	for _, p := range cfg.Pairings() {
		res.Pairs = append(res.Pairs, Pair(res.Players[p[0]], res.Players[p[1]], res.Games))
	}
	anchor := cfg.anchorIndex()
	r, err := FitElo(res.Players, Outcomes(res.Players, res.Games),
		EloOptions{Anchor: anchor, AnchorElo: cfg.AnchorElo, PriorDraws: cfg.PriorDraws})
	if err != nil {
		return fmt.Errorf("evaluate: ratings: %w", err)
	}
	res.Ratings = r
	return nil
}

// anchorIndex resolves Config.Anchor (already validated).
func (c *Config) anchorIndex() int {
	for i, p := range c.Agents {
		if c.Anchor != "" && (p.Label() == c.Anchor || (p.Name == "" && CanonicalSpec(p.Spec) == CanonicalSpec(c.Anchor))) {
			return i
		}
	}
	if c.Anchor == "" {
		for i, p := range c.Agents {
			if CanonicalSpec(p.Spec) == "random" {
				return i
			}
		}
	}
	return 0
}

// Outcomes turns games into Elo outcomes between the named players; games
// with a player not in names are skipped.
func Outcomes(names []string, games []Record) []Outcome {
	idx := map[string]int{}
	for i, n := range names {
		idx[n] = i
	}
	out := make([]Outcome, 0, len(games))
	for k := range games {
		r := &games[k]
		i, ok1 := idx[r.Players[0]]
		j, ok2 := idx[r.Players[1]]
		if ok1 && ok2 && i != j {
			out = append(out, Outcome{I: i, J: j, Score: r.Score(0)})
		}
	}
	return out
}
