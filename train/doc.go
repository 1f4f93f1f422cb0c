// Package train trains agents from a YAML config: AlphaZero self-play with
// the lock-step PUCT search, a replay buffer, network training, periodic
// evaluation with Elo on the scale of configs/bench-classical.yaml, and a run
// directory that holds everything needed to resume after Ctrl-C or kill -9.
//
// # Config
//
// [LoadConfig] reads one YAML document strictly (unknown keys, wrong types,
// non-finite numbers and out-of-range values are errors naming file, line and
// key path), applies --set overrides and validates; [Default] holds every
// default. docs/config.md documents each key.
//
// # Runs
//
// [Run] trains until the config's stop condition. Each iteration plays the
// self-play games with agents.Lockstep (every fully searched move goes into
// the replay [Buffer] with its visit distribution, root value and the game's
// final reward for the mover), trains the network with nn.Trainer on batches
// drawn from the buffer, saves checkpoints/iter-NNNN.ckpt and the buffer,
// evaluates through the evaluate package every few iterations, and commits
// with a row of metrics.csv and then state.json. Every file is written
// atomically, so a run killed at any moment resumes ([Options.Resume]) from
// its last committed iteration, and the resumed run equals an uninterrupted
// one bit for bit (without a time budget): every iteration draws its
// randomness from the run's seed and its own number.
package train
