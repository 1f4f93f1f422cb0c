package network

import (
	"os"
	"testing"
	"time"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn/nntest"
)

// TestNetCache: agents built from one checkpoint share its network until
// the file changes.
func TestNetCache(t *testing.T) {
	path := nntest.Checkpoint(t, env.Urim, 8, 1)
	a, err := loadAgentNet(path)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := loadAgentNet(path); b != a {
		t.Fatal("the same unchanged checkpoint was read twice")
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if c, _ := loadAgentNet(path); c == a || c == nil {
		t.Fatal("a changed checkpoint was not read again")
	}
}
