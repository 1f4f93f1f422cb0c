package train

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/urim-rl/urim/evaluate"
	"github.com/urim-rl/urim/nn"
)

// Algorithm is one training method, driven by the run core one iteration at
// a time. The core owns the run directory, the network's checkpoints, the
// metrics rows, evaluation and gating, the commit and resume; an algorithm
// generates data and trains [Session.Net] (with [Session.Optimizer] and
// [Session.Step]) in [Algorithm.Iterate].
type Algorithm interface {
	// Columns are the algorithm's metrics.csv columns: they follow the
	// core's iteration, elapsed_s and games and precede the evaluation's.
	Columns() []string
	// Iterate runs iteration it: it generates the iteration's data and
	// trains the session's network. Whatever it writes must be recoverable
	// (or discarded) on resume until the core commits the iteration.
	Iterate(ctx context.Context, it int) (*Iteration, error)
	// Player is the evaluation player of net, iteration it's network.
	Player(it int, net *nn.Net) evaluate.Player
	// Committed is called once state.json names iteration it.
	Committed(it int) error
	// Close releases what the session holds (games, trainers).
	Close()
}

// CheckpointKeeper is an [Algorithm] that needs iterations' checkpoints
// kept beyond what checkpoints.keep_last and keep_every keep (PPO: its
// opponent pool's snapshots). The core asks after each commit.
type CheckpointKeeper interface {
	// KeptCheckpoints lists the iterations whose checkpoints must stay.
	KeptCheckpoints() []int
}

// Iteration is what an algorithm's iteration reports to the core.
type Iteration struct {
	// Games are the games finished in the iteration; Positions the
	// positions (or environment steps) it generated. state.json sums both.
	Games     int
	Positions int
	// Cells are the values of the algorithm's Columns.
	Cells []string
	// Summary is the algorithm's part of the iteration's log line.
	Summary string
	// Meta is stored in the iteration's checkpoint metadata.
	Meta map[string]string
	// Data is the algorithm's own record of the iteration, committed in
	// state.json with it (as JSON; nil for none): what a resumed session
	// needs beyond the checkpoint. Alphazero records the shards of its
	// replay window.
	Data any
}

// Factory makes an algorithm for a session that is set up: a new run (at
// iteration 0) or a resumed one ([Session.State] is the last commit).
type Factory func(s *Session) (Algorithm, error)

// Spec is what an algorithm package registers: how to make the algorithm
// and what the core cannot know about it.
type Spec struct {
	// New makes the algorithm of a session.
	New Factory
	// Panels are the algorithm's quantities in the run's figures, in the
	// order drawn (the core adds its own: the learning rate and the Elo).
	Panels []Panel
	// Sections are the algorithm's own config sections, in the order
	// declared (handles made by [NewSection]).
	Sections []Section
	// Remote is the algorithm's part in a distributed run: how a worker
	// process plays its self-play and its networks ([RemotePart]; package
	// train/cluster runs it). With one, the algorithm's self-play may come
	// from workers (the cluster section); without (nil), a distributed
	// config of the algorithm is refused.
	Remote *RemotePart
	// Arch, when set, gives the architecture of a new run's network from
	// the network section's (alphazero adds the score head that
	// training.score_weight trains); nil keeps the section's. A resumed
	// run keeps its checkpoint's.
	Arch func(cfg *Config, a nn.Arch) nn.Arch
}

var (
	regMu    sync.RWMutex
	registry = map[string]Spec{}
)

// Register makes the algorithm name (the config key algorithm) available.
// An algorithm package calls it from init; train/all imports them all. It
// panics when name is registered twice, spec has no New, or a section
// cannot take its place (its key taken, its After unknown), or its
// Remote has no Play.
func Register(name string, spec Spec) {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[name]; dup {
		panic(fmt.Sprintf("train: algorithm %q registered twice", name))
	}
	if spec.New == nil {
		panic(fmt.Sprintf("train: algorithm %q registered without New", name))
	}
	if spec.Remote != nil && spec.Remote.Play == nil {
		panic(fmt.Sprintf("train: algorithm %q registered with a Remote without Play", name))
	}
	addSections(name, spec.Sections)
	registry[name] = spec
}

// Algorithms returns the registered algorithm names, sorted.
func Algorithms() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func specOf(name string) (Spec, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	spec, ok := registry[name]
	return spec, ok
}

// marshalData encodes an iteration's Data for state.json.
func marshalData(d any) (json.RawMessage, error) {
	if d == nil {
		return nil, nil
	}
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("train: the algorithm's state: %w", err)
	}
	return b, nil
}

// checkAlgorithm reports an algorithm name that is not registered.
func checkAlgorithm(name string) error {
	names := Algorithms()
	if slices.Contains(names, name) {
		return nil
	}
	if len(names) == 0 {
		return bad("algorithm", "%q is not available: no algorithm is compiled in (import github.com/urim-rl/urim/train/all)", name)
	}
	return OneOf("algorithm", name, names)
}
