package agents

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// TestNetCache: agents built from one checkpoint share its network until
// the file changes.
func TestNetCache(t *testing.T) {
	net, err := nn.New(nn.Arch{Kind: nn.KindMLP, Width: 8, Depth: 1}, env.Urim, env.EncodingCompact, 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "net.ckpt")
	if err := nn.Save(path, &nn.Checkpoint{Net: net}); err != nil {
		t.Fatal(err)
	}
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
