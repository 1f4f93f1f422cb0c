// Package tbtest helps tests of the packages above tablebase: it builds
// small endgame tables and saves them to files.
package tbtest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/tablebase"
)

// File builds the table of rules r up to k seeds on the board, saves it to
// a file in tb's temporary directory and returns the file's path and the
// table.
func File(tb testing.TB, r env.Rules, k int) (string, *tablebase.Table) {
	tb.Helper()
	t, _, err := tablebase.Build(context.Background(), r, k, tablebase.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), r.Name+".tb")
	if err := t.Save(path); err != nil {
		tb.Fatal(err)
	}
	return path, t
}
