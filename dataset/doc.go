// Package dataset writes and reads self-play datasets: directories of game
// records and training tensors that other tools (Python above all) load.
//
// # Layout
//
// A dataset directory holds
//
//	manifest.json            schema version, rules, encoding, counts, config, program version,
//	                         and every shard's files with their SHA-256
//	shard-00000.npz          training tensors, one row per recorded position
//	games-00000.jsonl.gz     the games of that shard, one JSON object a line
//	shard-00001.npz ...
//
// A shard holds whole games: its .npz rows are the recorded positions of the
// games in its .jsonl.gz, game after game, in the same order. docs/dataset.md
// documents every file, array, dtype and shape.
//
// # Writing
//
// A [Recorder] turns one game into a [Game]: [Recorder.Start] names it,
// [Recorder.Add] records each searched move (the position before it, the
// action, and the search's visit distribution and value when there is one),
// [Recorder.Finish] scores it. A [Writer] takes finished games with
// [Writer.Add], cuts shards of about Options.ShardPositions positions, writes
// each atomically (a temporary file, fsync, rename) and then rewrites the
// manifest, so a dataset directory never lists a half-written shard. A
// training loop that plays its own games feeds them the same way.
//
// [SelfPlay] plays games between agents given as spec strings in parallel and
// writes them: it is `urim selfplay`. Game i is seeded from the run's seed and
// i alone, and games reach the shards in the order of their ids, so the
// dataset depends only on the config, not on the number of workers, and a run
// resumed after an interrupt holds the same games as one that was not.
//
// # Reading
//
// [Open] reads and checks a manifest; [Dataset.LoadShard] reads one shard's
// tensors and records, checking the exact array set, dtypes and shapes;
// [Verify] checks every checksum and replays every game through the rules
// engine; [Inspect] summarises outcomes, lengths and end reasons.
package dataset
