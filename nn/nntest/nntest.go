// Package nntest helps tests of the packages above nn: it writes small
// untrained networks to checkpoint files.
package nntest

import (
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// Checkpoint writes an untrained MLP of one hidden layer of width units
// for rules, on the compact encoding, to a file in tb's temporary directory
// and returns its path. The weights depend only on seed.
func Checkpoint(tb testing.TB, rules env.Rules, width int, seed uint64) string {
	tb.Helper()
	net, err := nn.New(nn.Arch{Kind: nn.KindMLP, Width: width, Depth: 1}, rules, env.EncodingCompact, seed)
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), rules.Name+".ckpt")
	if err := nn.Save(path, &nn.Checkpoint{Net: net}); err != nil {
		tb.Fatal(err)
	}
	return path
}
