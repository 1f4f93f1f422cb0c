// Package capi is the logic behind the C library of cmd/liburim, which
// Python's urim package loads with ctypes (docs/python.md): a vectorized
// environment that writes into buffers its caller owns, single games in the
// PettingZoo style, agents by spec string, matches and tournaments through
// the evaluator (with agents played by the caller), networks imported from
// NumPy weights, and the benchmarks that compare the two sides. It holds no
// cgo: cmd/liburim turns C pointers into the slices these functions take,
// for the duration of one call, and turns their errors into codes.
//
// Everything here reuses the packages it wraps (env.Vec, the agents'
// registry, evaluate.RunTournament, nn's checkpoints): the library gives
// Python the same observations, masks, rewards, games and ratings as the Go
// code and the command.
package capi
