package env

import "fmt"

// EndReason says why a game ended.
type EndReason uint8

const (
	// Ongoing: the game has not ended.
	Ongoing EndReason = iota
	// EndNoLegalMove: the player to move has no legal move (its row is empty,
	// or it cannot feed the opponent's empty row).
	EndNoLegalMove
	// EndRepetition: the position occurred before since the last capture.
	EndRepetition
	// EndMajority: a store holds more than half the seeds, or both hold half
	// (rules with EndOnMajority only).
	EndMajority
	// EndPlyCap: the game reached Rules.MaxPlies; environments report it as
	// truncated, not terminated.
	EndPlyCap
	// EndIllegalAction: the player to move chose an illegal action and lost
	// (a [Vec] under [IllegalLoss]). The rules never end a State this way;
	// only an environment's [Episode] carries it.
	EndIllegalAction
)

var reasonNames = [...]string{"ongoing", "no_legal_move", "repetition", "majority", "ply_cap", "illegal_action"}

// String returns the reason's snake_case name, as printed in JSON.
func (r EndReason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("EndReason(%d)", r)
}

// FinalStores returns the stores as the rules count them at the end: each
// player's store plus the seeds left in its own row. On an ongoing game it is
// the score if the game stopped now.
func (s *State) FinalStores() [2]int {
	return [2]int{int(s.stores[0]) + s.RowSeeds(0), int(s.stores[1]) + s.RowSeeds(1)}
}

// Winner returns 0 or 1 for the player with more seeds in the final stores,
// or -1 for a draw.
func (s *State) Winner() int { return Winner(s.FinalStores()) }

// Winner returns 0 or 1 for the player with more seeds in final stores f,
// or -1 for a draw: the one rule behind State.Winner, Episode.Winner and
// the evaluator's records.
func Winner(f [2]int) int {
	switch {
	case f[0] > f[1]:
		return 0
	case f[1] > f[0]:
		return 1
	}
	return -1
}

// MatchPoints returns the match points of both players from the final stores:
// the winner scores 2 with at least ceil(3T/4) seeds, otherwise 1; the loser
// and both players in a draw score 0.
func (s *State) MatchPoints() [2]int {
	return MatchPoints(s.FinalStores(), s.g.total)
}

// MatchPoints returns the match points for final stores f in a game of t
// seeds.
func MatchPoints(f [2]int, t int) [2]int {
	var mp [2]int
	for p := 0; p < 2; p++ {
		switch {
		case 4*f[p] >= 3*t:
			mp[p] = 2
		case 2*f[p] > t:
			mp[p] = 1
		}
	}
	return mp
}

// RewardKind selects how a finished game is turned into a reward.
type RewardKind uint8

const (
	// RewardMatchPoints: (my match points − opponent's) / 2, in {−1, −½, 0, ½, 1}.
	RewardMatchPoints RewardKind = iota
	// RewardWinLoss: +1 win, −1 loss, 0 draw.
	RewardWinLoss
	// RewardSeedMargin: (my seeds − opponent's) / T.
	RewardSeedMargin
)

var rewardNames = [...]string{"match_points", "win_loss", "seed_margin"}

// String returns the name used in configs.
func (k RewardKind) String() string {
	if int(k) < len(rewardNames) {
		return rewardNames[k]
	}
	return fmt.Sprintf("RewardKind(%d)", k)
}

// ParseRewardKind maps a config name to its RewardKind.
func ParseRewardKind(name string) (RewardKind, error) {
	for i, n := range rewardNames {
		if n == name {
			return RewardKind(i), nil
		}
	}
	return 0, fmt.Errorf("env: unknown reward %q (known: match_points, win_loss, seed_margin)", name)
}

// Rewards returns both players' rewards of kind k for the final stores of s.
func (s *State) Rewards(k RewardKind) [2]float32 {
	f := s.FinalStores()
	var r0 float32
	switch k {
	case RewardMatchPoints:
		mp := MatchPoints(f, s.g.total)
		r0 = float32(mp[0]-mp[1]) / 2
	case RewardWinLoss:
		switch {
		case f[0] > f[1]:
			r0 = 1
		case f[0] < f[1]:
			r0 = -1
		}
	case RewardSeedMargin:
		r0 = float32(f[0]-f[1]) / float32(s.g.total)
	default:
		panic(fmt.Sprintf("env: unknown reward kind %d", k))
	}
	return [2]float32{r0, -r0}
}
