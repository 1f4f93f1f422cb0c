package dataset

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/urim-rl/urim/internal/splitmix"
)

// goldenTensors returns a shard of n rows whose every value is drawn from a
// splitmix sequence, so that its .npz bytes are fixed.
func goldenTensors(n, dim, actions int) *Tensors {
	t := &Tensors{N: n, Dim: dim, Actions: actions}
	x := uint64(0)
	next := func() uint64 { x++; return splitmix.Mix(x) }
	for range n * dim {
		t.Obs = append(t.Obs, float32(next()>>40)/(1<<24))
	}
	for range n * actions {
		t.Mask = append(t.Mask, next()&1 == 1)
		t.Policy = append(t.Policy, float32(next()>>40)/(1<<24))
	}
	for i := range n {
		t.HasPolicy = append(t.HasPolicy, next()&1 == 1)
		t.Value = append(t.Value, float32(next()>>40)/(1<<23)-1)
		t.Outcome = append(t.Outcome, float32(int(next()%3)-1))
		t.Action = append(t.Action, int32(next()%uint64(actions)))
		t.Ply = append(t.Ply, int32(i%200))
		t.GameID = append(t.GameID, int64(i/50))
	}
	return t
}

// TestWriteNPZGolden pins the bytes of a shard: the SHA-256 sums below are
// those of the shard writer before the .npz writing moved to internal/npz
// (commit ebaab87), for a small shard and for one whose observations span
// several compression chunks.
func TestWriteNPZGolden(t *testing.T) {
	for _, c := range []struct {
		n, dim, actions int
		sum             string
	}{
		{7, 3, 2, "9d30b995ede373ff21f79cb17c57b93a797cc34aa0b7ae2cc73af4f25d5a89e8"},
		{10000, 40, 12, "90b74f4c39ccbbc233e6cc05c5a7fd5f9c8cf776a388dce53b04b467a4ef7413"},
	} {
		var buf bytes.Buffer
		if err := goldenTensors(c.n, c.dim, c.actions).WriteNPZ(&buf); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(buf.Bytes())); got != c.sum {
			t.Errorf("%d rows: sha256 %s, want %s", c.n, got, c.sum)
		}
	}
}
