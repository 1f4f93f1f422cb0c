package env

// Rows are the columns of training positions, flat and row-major, one row
// per position: the one declaration of the row schema. A dataset's games
// and shards hold their rows in them (dataset.Columns is Rows; the dataset
// package names the arrays and their dtypes on disk, docs/dataset.md
// documents them), training's replay window its ring, and nn.Batch a
// training step's batch. Row widths are the encoding's Dim for Obs and the
// game's actions (PitsPerRow) for Mask and Policy; every other column has
// one value per row. A holder uses the columns it needs and leaves the rest
// nil (a training batch reads Obs, Mask, Policy and Outcome, and Margin
// with a score loss).
type Rows struct {
	Obs       []float32 // rows × Dim: the observation of the player to move
	Mask      []bool    // rows × Actions: the legal actions
	Policy    []float32 // rows × Actions: the search's visit distribution (the policy target), zeros without one
	HasPolicy []bool    // the mover reported a search
	Value     []float32 // the search's value for the mover, 0 without one
	Outcome   []float32 // the game's reward for the mover (the value target)
	Action    []int32   // the action played
	Ply       []int32   // plies played before the position
	// Margin is the game's final seed margin for the mover over the rules'
	// seeds, in [-1, 1]: the score target of a network with a score head
	// (nn.Arch.Score). Datasets do not store it, since a shard's game
	// records give it (dataset.Record.Margin); training's replay window
	// and batches hold it when the run trains a score head.
	Margin []float32
}
