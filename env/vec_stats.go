package env

// Episode is the record of one finished game of a [Vec], kept for logging
// and evaluation. Read them with [Vec.Episodes].
type Episode struct {
	// Game is the game's index in the batch.
	Game int
	// Plies is the length of the game in plies, the random opening included.
	Plies int
	// Steps is the number of actions the game took through Step: Plies
	// minus the opening plies.
	Steps int
	// Stores are the final stores ([State.FinalStores]) of players 0 and 1.
	Stores [2]int
	// MatchPoints are the match points of players 0 and 1. A game lost by an
	// illegal action gives the opponent 2 and the mover 0.
	MatchPoints [2]int
	// Rewards are the rewards the step reported for players 0 and 1.
	Rewards [2]float32
	// Reason is why the game ended: the rules' reason, or EndIllegalAction
	// when the player to move, Loser, chose an illegal action under
	// [IllegalLoss].
	Reason EndReason
	// Truncated reports that the ply cap cut the game (Reason is EndPlyCap).
	Truncated bool
	// Loser is the player who played the illegal action (when Reason is
	// EndIllegalAction).
	Loser int
}

// ReasonName returns the end reason as printed in logs and JSON, its
// [EndReason] name.
func (e *Episode) ReasonName() string { return e.Reason.String() }

// Winner returns 0 or 1 for the player who won the episode, or -1 for a
// draw.
func (e *Episode) Winner() int {
	if e.Reason == EndIllegalAction {
		return 1 - e.Loser
	}
	return Winner(e.Stores)
}

// EpisodeSummary aggregates a list of episodes for a log line.
type EpisodeSummary struct {
	Episodes  int
	MeanPlies float64
	// Wins counts the games won by player 0 and by player 1.
	Wins [2]int
	// Draws counts the drawn games.
	Draws int
	// Reasons counts the games by [EndReason] (indexed by its value), games
	// lost by an illegal action under EndIllegalAction.
	Reasons [EndIllegalAction + 1]int
	// MeanReward is the mean reward of player 0.
	MeanReward float64
}

// SummarizeEpisodes aggregates eps.
func SummarizeEpisodes(eps []Episode) EpisodeSummary {
	var s EpisodeSummary
	plies, reward := 0, 0.0
	for i := range eps {
		e := &eps[i]
		s.Episodes++
		plies += e.Plies
		reward += float64(e.Rewards[0])
		if w := e.Winner(); w >= 0 {
			s.Wins[w]++
		} else {
			s.Draws++
		}
		if int(e.Reason) < len(s.Reasons) {
			s.Reasons[e.Reason]++
		}
	}
	if s.Episodes > 0 {
		s.MeanPlies = float64(plies) / float64(s.Episodes)
		s.MeanReward = reward / float64(s.Episodes)
	}
	return s
}
