package evaluate

import "github.com/urim-rl/urim/internal/config"

// MaxTournamentGames is the most games one tournament plays, over all its
// pairings: each finished game stays in memory for the report (about a
// kilobyte with its moves), so this bound keeps a run near 1 GB. A bigger
// study is several runs sharing a store.
const MaxTournamentGames = 1_000_000

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
