package dataset

import (
	"bytes"
	"testing"

	"github.com/urim-rl/urim/env"
)

// benchTensors returns the rows of about n positions of random games.
func benchTensors(b *testing.B, n int, enc env.Encoding) (*Tensors, []Record) {
	g := env.MustGame(env.Urim)
	rec := NewRecorder(g, enc, env.RewardMatchPoints)
	t := &Tensors{Dim: enc.Dim(g), Actions: 6}
	var recs []Record
	for id := int64(0); t.N < n; id++ {
		gm := playRandom(b, rec, g, id)
		t.appendGame(&gm)
		recs = append(recs, gm.Record)
	}
	return t, recs
}

// BenchmarkWriteNPZ measures encoding and compressing one shard of 16384
// positions in memory (no disk); ns/op divided by the rows is the writer's
// cost per position.
func BenchmarkWriteNPZ(b *testing.B) {
	for _, enc := range []env.Encoding{env.EncodingCompact, env.EncodingThermometer} {
		b.Run(enc.String(), func(b *testing.B) {
			t, recs := benchTensors(b, DefaultShardPositions, enc)
			var buf bytes.Buffer
			b.ResetTimer()
			for range b.N {
				buf.Reset()
				if err := t.WriteNPZ(&buf); err != nil {
					b.Fatal(err)
				}
				if err := WriteRecords(&buf, recs); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(t.N), "ns/position")
			b.ReportMetric(float64(buf.Len())/float64(t.N), "bytes/position")
		})
	}
}

// BenchmarkWriter measures the whole writer: Add (copying the rows), then
// shards of DefaultShardPositions compressed, written, synced and listed in
// the manifest, on the test's temporary disk.
func BenchmarkWriter(b *testing.B) {
	g := env.MustGame(env.Urim)
	rec := NewRecorder(g, env.EncodingCompact, env.RewardMatchPoints)
	var games []Game
	rows := 0
	for id := int64(0); rows < 4*DefaultShardPositions; id++ {
		gm := playRandom(b, rec, g, id)
		games = append(games, gm)
		rows += gm.Record.Positions
	}
	b.ResetTimer()
	for range b.N {
		w, err := Create(b.TempDir(), Options{Rules: env.Urim})
		if err != nil {
			b.Fatal(err)
		}
		for i := range games {
			if err := w.Add(&games[i]); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows), "ns/position")
}
