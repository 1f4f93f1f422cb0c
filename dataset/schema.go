package dataset

import (
	"encoding/json"
	"fmt"

	"github.com/urim-rl/urim/env"
)

// SchemaVersion is the version of the dataset layout this package writes and
// reads. It is bumped whenever a file, an array or a field changes meaning.
const SchemaVersion = 1

// Format names the dataset layout in the manifest.
const Format = "urim-dataset"

// ManifestName is the manifest's file name in a dataset directory.
const ManifestName = "manifest.json"

// Array names of a shard, in the order they are written.
const (
	ArrObs       = "obs"        // float32 (N, D): observation of the player to move
	ArrMask      = "mask"       // bool (N, A): legal actions
	ArrPolicy    = "policy"     // float32 (N, A): search visit distribution, zeros without one
	ArrHasPolicy = "has_policy" // bool (N): the mover reported a search
	ArrValue     = "value"      // float32 (N): search value for the mover, 0 without one
	ArrOutcome   = "outcome"    // float32 (N): the game's reward for the mover
	ArrAction    = "action"     // int32 (N): the action played
	ArrPly       = "ply"        // int32 (N): plies played before the position
	ArrGameID    = "game_id"    // int64 (N): the game's id
)

// arraySpec is one array of a shard: its name, NumPy dtype and the width of a
// row (0: a vector of N values).
type arraySpec struct {
	name  string
	dtype string
	width int
}

// arrays lists a shard's arrays for observations of width dim and a actions.
func arrays(dim, a int) []arraySpec {
	return []arraySpec{
		{ArrObs, "<f4", dim},
		{ArrMask, "|b1", a},
		{ArrPolicy, "<f4", a},
		{ArrHasPolicy, "|b1", 0},
		{ArrValue, "<f4", 0},
		{ArrOutcome, "<f4", 0},
		{ArrAction, "<i4", 0},
		{ArrPly, "<i4", 0},
		{ArrGameID, "<i8", 0},
	}
}

// ArrayNames lists the arrays of every shard, in the order they are written.
func ArrayNames() []string {
	var names []string
	for _, s := range arrays(1, 1) {
		names = append(names, s.name)
	}
	return names
}

// Manifest describes a dataset directory; it is manifest.json.
type Manifest struct {
	// Format is "urim-dataset", SchemaVersion the layout's version.
	Format        string `json:"format"`
	SchemaVersion int    `json:"schema_version"`
	// RulesVersion is env.RulesVersion when the games were played: replays
	// under another engine version may differ.
	RulesVersion int `json:"rules_version"`
	// Program is the version of the program that wrote the dataset (module
	// version, VCS revision, "+dirty" for uncommitted changes).
	Program string `json:"program"`
	// Rules are the rules every game was played under.
	Rules env.Rules `json:"rules"`
	// Encoding names the observation encoding (compact or thermometer),
	// ObsDim its width, Actions the number of actions (pits per row).
	Encoding string `json:"encoding"`
	ObsDim   int    `json:"obs_dim"`
	Actions  int    `json:"actions"`
	// Outcome names the reward kind the outcome array holds, from the
	// mover's point of view (match_points, win_loss or seed_margin).
	Outcome string `json:"outcome"`
	// ShardPositions is the size a shard is cut at: a shard closes after the
	// game that brings it to at least this many positions.
	ShardPositions int `json:"shard_positions"`
	// Games and Positions count what the listed shards hold.
	Games     int `json:"games"`
	Positions int `json:"positions"`
	// Complete is true once the writer closed normally; false while a run
	// is under way or after it was interrupted (resume it).
	Complete bool `json:"complete"`
	// Config is the configuration of the run that wrote the dataset
	// (self-play or training), as the writer gave it.
	Config json.RawMessage `json:"config,omitempty"`
	// Shards lists the shards in order.
	Shards []ShardInfo `json:"shards"`
}

// ShardInfo is one shard in the manifest.
type ShardInfo struct {
	// Tensors and Games are the file names of the .npz and .jsonl.gz files,
	// relative to the dataset directory.
	Tensors string `json:"tensors"`
	Games   string `json:"games"`
	// NumGames and Positions count the games and the tensor rows.
	NumGames  int `json:"num_games"`
	Positions int `json:"positions"`
	// FirstID and LastID are the smallest and largest game id in the shard.
	FirstID int64 `json:"first_id"`
	LastID  int64 `json:"last_id"`
	// TensorsSHA256 and GamesSHA256 are the files' SHA-256 digests in hex,
	// TensorsBytes and GamesBytes their sizes.
	TensorsSHA256 string `json:"tensors_sha256"`
	GamesSHA256   string `json:"games_sha256"`
	TensorsBytes  int64  `json:"tensors_bytes"`
	GamesBytes    int64  `json:"games_bytes"`
}

// shardNames returns the file names of shard k.
func shardNames(k int) (tensors, games string) {
	return fmt.Sprintf("shard-%05d.npz", k), fmt.Sprintf("games-%05d.jsonl.gz", k)
}

// Record is one game as the .jsonl.gz files hold it, one JSON object a line.
// Seats are indexed by player: 0 is South, who moves first, 1 is North.
type Record struct {
	// ID identifies the game in the dataset (the game_id array); Seed is
	// the seed its opening and agents were drawn from.
	ID   int64  `json:"id"`
	Seed uint64 `json:"seed"`
	// Rules are the full rules the game was played under (Rules.Name names
	// the preset).
	Rules env.Rules `json:"rules"`
	// Agents are the agent specs by seat.
	Agents [2]string `json:"agents"`
	// Opening holds the random plies the game started with; they are also
	// the first moves of Moves and have no tensor rows.
	Opening []int `json:"opening"`
	// Moves lists every action played from the start, the opening included.
	Moves []int `json:"moves"`
	// Stores are the final stores (seeds left on a row count for its owner),
	// Winner the seat with more seeds (-1: a draw), MatchPoints the match
	// points the stores give.
	Stores      [2]int `json:"stores"`
	Winner      int    `json:"winner"`
	MatchPoints [2]int `json:"match_points"`
	// Reason says why the game ended (no_legal_move, repetition, majority,
	// ply_cap).
	Reason string `json:"reason"`
	// Plies is len(Moves); Positions the number of tensor rows of the game,
	// one per recorded move: every move after the opening in self-play, a
	// subset when a training loop records only some (the ply array says
	// which).
	Plies     int `json:"plies"`
	Positions int `json:"positions"`
}
