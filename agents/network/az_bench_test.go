package network_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn"
)

// BenchmarkAZ plays the az agent against itself on an untrained network of
// the default architecture, 200 simulations per move, at several batch
// sizes: one op is one move, and sims/s shows what batching a single
// game's leaves buys.
func BenchmarkAZ(b *testing.B) {
	net, err := nn.New(nn.DefaultArch(), env.Urim, env.EncodingCompact, 1)
	if err != nil {
		b.Fatal(err)
	}
	ckpt := filepath.Join(b.TempDir(), "net.ckpt")
	if err := nn.Save(ckpt, &nn.Checkpoint{Net: net}); err != nil {
		b.Fatal(err)
	}
	g := env.MustGame(env.Urim)
	for _, batch := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			a, err := agents.New(fmt.Sprintf("az:sims=200,batch=%d,ckpt=%s", batch, ckpt), 1)
			if err != nil {
				b.Fatal(err)
			}
			s := g.Start()
			b.ReportAllocs()
			for b.Loop() {
				if s.Terminal() {
					s = g.Start()
					agents.Reset(a)
				}
				m, err := a.Act(&s)
				if err != nil {
					b.Fatal(err)
				}
				s.Play(m)
			}
			b.ReportMetric(float64(b.N)*200/b.Elapsed().Seconds(), "sims/s")
		})
	}
}
