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
package train
