package env

import (
	"fmt"
	"runtime"
	"strings"
)

// VecOptions configures a [Vec]. The zero value is the sensible default:
// one worker per core, reset on the next step, match-point rewards, the
// compact encoding, seed 0, no random opening, and an error for an illegal
// action.
type VecOptions struct {
	// Workers is the number of goroutines that step the batch, each over a
	// fixed range of game indices (the caller's goroutine runs the first).
	// 0 means runtime.NumCPU(), but no more than one per 64 games, since
	// handing a step to a worker costs about as much as stepping a few dozen
	// games; a number given explicitly is used as is, up to N. Results do
	// not depend on it.
	Workers int
	// AutoReset says what happens to a game once it has ended; the zero value
	// is AutoResetNextStep.
	AutoReset AutoReset
	// Reward turns a finished game into the two players' rewards; the zero
	// value is RewardMatchPoints.
	Reward RewardKind
	// Encoding selects the observation columns; the zero value is
	// EncodingCompact.
	Encoding Encoding
	// Seed seeds the random openings. Game i's e-th episode draws from its
	// own generator seeded from (Seed, i, e), so the stream is the same for
	// any number of workers.
	Seed uint64
	// OpeningPlies starts every game after this many random plies, drawn
	// uniformly among the legal moves that do not end the game. 0 (the
	// default) starts from the rules' start position.
	OpeningPlies int
	// Illegal says what an illegal action does; the zero value is
	// IllegalError.
	Illegal IllegalPolicy
}

// AutoReset says what a [Vec] does with a game that has ended. The names
// follow Gymnasium's autoreset modes.
type AutoReset uint8

const (
	// AutoResetNextStep (the default) reports a finished game on the step
	// that ends it (its final observation, rewards, terminated or truncated);
	// the next Step ignores the game's action, starts a new game and returns
	// its first observation with reward 0 and both flags false.
	AutoResetNextStep AutoReset = iota
	// AutoResetSameStep starts the new game within the step that ends the old
	// one: the step returns the new game's first observation and mask, the
	// old game's rewards and flags, and the old game's final observation in
	// FinalObs, marked in HasFinalObs.
	AutoResetSameStep
	// AutoResetDisabled leaves finished games finished: later steps ignore
	// their actions, keep their final observation, all-zero mask and
	// terminated or truncated flag, and give reward 0, until
	// [Vec.ResetMask] or [Vec.Reset] starts them again.
	AutoResetDisabled
)

// IllegalPolicy says what a [Vec] does with an action that is not legal.
type IllegalPolicy uint8

const (
	// IllegalError (the default) makes Step return an [*ActionError] naming
	// the first offending game, its action and the legal ones; no game is
	// stepped.
	IllegalError IllegalPolicy = iota
	// IllegalLoss ends the offending game at once as a loss for the mover
	// (the PettingZoo convention): reward −1 for the mover and +1 for the
	// opponent whatever the reward kind, terminated, and an [Episode] with
	// Illegal set. The board is left as it was.
	IllegalLoss
)

var (
	autoResetNames = []string{"next_step", "same_step", "disabled"}
	illegalNames   = []string{"error", "loss"}
)

// String returns the mode's config name: next_step, same_step or disabled.
func (m AutoReset) String() string { return vecName(autoResetNames, uint8(m), "AutoReset") }

// String returns the policy's config name: error or loss.
func (p IllegalPolicy) String() string { return vecName(illegalNames, uint8(p), "IllegalPolicy") }

// ParseAutoReset maps a config name (next_step, same_step, disabled) to its
// mode.
func ParseAutoReset(name string) (AutoReset, error) {
	i, err := vecParseName("autoreset mode", autoResetNames, name)
	return AutoReset(i), err
}

// ParseIllegalPolicy maps a config name (error, loss) to its policy.
func ParseIllegalPolicy(name string) (IllegalPolicy, error) {
	i, err := vecParseName("illegal-action policy", illegalNames, name)
	return IllegalPolicy(i), err
}

func vecName(names []string, i uint8, typ string) string {
	if int(i) < len(names) {
		return names[i]
	}
	return fmt.Sprintf("%s(%d)", typ, i)
}

func vecParseName(what string, names []string, name string) (uint8, error) {
	for i, n := range names {
		if n == name {
			return uint8(i), nil
		}
	}
	return 0, fmt.Errorf("env: unknown %s %q (known: %s)", what, name, strings.Join(names, ", "))
}

// vecMinShare is the fewest games per worker that the default Workers
// gives. Below it the per-step hand-over costs about as much as the worker
// saves: urim bench env measured 2 workers at 1.3x one worker for 64 games,
// 1.55x for 128 and 1.8x for 512 on an idle 2-core machine, and slower than
// one worker for small batches when the other core was busy.
const vecMinShare = 64

// normalize checks o for n games of g and fills in the defaults.
func (o VecOptions) normalize(g *Game, n int) (VecOptions, error) {
	if g == nil {
		return o, fmt.Errorf("env: NewVec: no game (nil *Game)")
	}
	if n < 1 {
		return o, fmt.Errorf("env: NewVec: %d games: need at least 1", n)
	}
	if o.Workers < 0 {
		return o, fmt.Errorf("env: NewVec: Workers %d is negative (0 means one per core)", o.Workers)
	}
	if o.Workers == 0 {
		o.Workers = max(1, min(runtime.NumCPU(), n/vecMinShare))
	}
	o.Workers = min(o.Workers, n)
	if int(o.AutoReset) >= len(autoResetNames) {
		return o, fmt.Errorf("env: NewVec: unknown AutoReset %d", o.AutoReset)
	}
	if int(o.Reward) >= len(rewardNames) {
		return o, fmt.Errorf("env: NewVec: unknown Reward %d", o.Reward)
	}
	if int(o.Encoding) >= len(encodingNames) {
		return o, fmt.Errorf("env: NewVec: unknown Encoding %d", o.Encoding)
	}
	if int(o.Illegal) >= len(illegalNames) {
		return o, fmt.Errorf("env: NewVec: unknown Illegal policy %d", o.Illegal)
	}
	if o.OpeningPlies < 0 {
		return o, fmt.Errorf("env: NewVec: OpeningPlies %d is negative", o.OpeningPlies)
	}
	if o.OpeningPlies > vecMaxOpening {
		return o, fmt.Errorf("env: NewVec: OpeningPlies %d is above %d", o.OpeningPlies, vecMaxOpening)
	}
	if err := g.CheckOpening(o.OpeningPlies); err != nil {
		return o, fmt.Errorf("env: NewVec: OpeningPlies: %w", err)
	}
	return o, nil
}
