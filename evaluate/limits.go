package evaluate

import "github.com/urim-rl/urim/internal/config"

// MaxTournamentGames is the most games one tournament plays, over all its
// pairings: each finished game stays in memory for the report (about a
// kilobyte with its moves), so this bound keeps a run near 1 GB. A bigger
// study is several runs sharing a store.
const MaxTournamentGames = 1_000_000

// MaxTournamentAgents is the most players one tournament takes: a round
// robin of more would pass MaxTournamentGames with even one game a pairing.
const MaxTournamentAgents = 1000

// numPairings is the number of pairings of n players in format f, counted
// without building them.
func numPairings(n int, f Format) int {
	if f == Gauntlet {
		return max(n-1, 0)
	}
	return n * (n - 1) / 2
}

// checkAgents refuses more than MaxTournamentAgents players, and a game
// count over MaxTournamentGames, before anything is built for them.
func checkAgents(n int, f Format, games int) error {
	if n > MaxTournamentAgents {
		return config.Errorf("agents", "%d listed, over the limit of %d players per tournament", n, MaxTournamentAgents)
	}
	return checkSize(games, numPairings(n, f))
}

// checkSize refuses a tournament of more than MaxTournamentGames games
// before any is set up.
func checkSize(games, pairings int) error {
	if games > MaxTournamentGames || pairings*games > MaxTournamentGames {
		return config.Errorf("games", "%d per pairing × %d pairings is over the limit of %d games per tournament "+
			"(each is kept in memory for the report); split the run into smaller ones that share a store",
			games, pairings, MaxTournamentGames)
	}
	return nil
}
