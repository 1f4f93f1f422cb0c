// Package train is the run core of training from a YAML config: the config
// itself, the run directory, its commit and resume, the metrics rows and
// plots, and the evaluation with Elo on the scale of
// configs/bench-classical.yaml, gating and promotion to best. The training
// methods themselves are [Algorithm]s in their own packages, which register
// by name with a [Spec] ([Register]; the Spec also declares the algorithm's
// panels of losses.png and speed.png): train/alphazero (self-play with the lock-step PUCT
// search and a replay window) and train/ppo (PPO on the vectorized
// environment). Import train/all to have them all; the core imports none of
// them, so adding an algorithm is adding a package.
//
// # Config
//
// [LoadConfig] reads one YAML document strictly (unknown keys, wrong types,
// non-finite numbers and out-of-range values are errors naming file, line and
// key path), applies --set overrides and validates; [Default] holds every
// default. [Config] holds the core's keys; an algorithm declares its own
// sections once with [NewSection] (key, place, default, check) and lists
// them in its Spec; they join the one schema the decoder, --set, the
// printer and resume's comparison use, and it reads and replaces a config's
// value through the handle ([SectionHandle.Of], [SectionHandle.Set]).
// docs/config.md documents each key.
//
// # Runs
//
// [Run] trains until the config's stop condition. Each iteration calls the
// algorithm's [Algorithm.Iterate] on the [Session] (which plays and trains
// the network), then saves checkpoints/iter-NNNN.ckpt, evaluates through
// the evaluate package every few iterations, and commits with a row of
// metrics.csv and then state.json. Every file is written atomically, so a
// run killed at any moment resumes ([Options.Resume]) from its last
// committed iteration, and the resumed run equals an uninterrupted one bit
// for bit (without a time budget): every iteration draws its randomness
// from the run's seed and its own number ([Session.Seed]).
package train
