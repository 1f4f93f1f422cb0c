package nn

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"codeberg.org/sbinet/npyio"

	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/nn/kernels"
)

// The score head (Arch.Score): a network without it is today's, bit for
// bit; one with it saves, loads, predicts and trains as documented.

// scoreArchs are the architectures the score head's tests run on.
var scoreArchs = []Arch{
	{Kind: KindMLP, Width: 16, Depth: 2},
	{Kind: KindMLP, Width: 64, Depth: 2, LayerNorm: true},
	{Kind: KindResMLP, Width: 32, Depth: 2, LayerNorm: true},
	{Kind: KindResMLP, Width: 64, Depth: 2},
}

func withScore(a Arch) Arch { a.Score = true; return a }

// marginBatch is testBatch with score targets: margins in [-1, 1] that
// depend on the position (its first observation columns), so that a
// network can learn them.
func marginBatch(t testing.TB, n int, seed uint64) Batch {
	b := testBatch(t, env.Urim, env.EncodingCompact, n, seed)
	d := len(b.Obs) / n
	b.Margin = make([]float32, n)
	for r := range b.Margin {
		row := b.Obs[r*d : (r+1)*d]
		b.Margin[r] = float32(math.Tanh(float64(row[0] - row[3] + 0.5*row[7] - 0.2)))
	}
	return b
}

// TestScoreOffIsToday: without the score head, a network's checkpoint and
// a few training steps' checkpoint have the bytes of commit 19f7467, before
// the head existed (the trained bytes depend on the kernels' back-end: those
// measured are pinned, others skipped).
func TestScoreOffIsToday(t *testing.T) {
	archs := []Arch{{Kind: KindMLP, Width: 16, Depth: 2}, {Kind: KindResMLP, Width: 32, Depth: 2, LayerNorm: true}}
	fresh := []string{"26a1c218dd539ea74da4c7d6c0d2ae1bf826c064e4e0f6def9cfc6b64ff08b47", "385f6f3bafad5010dc1e7692da7f317120223da91a4fc1a316bef04fa9da8e3a"}
	trained := map[string][]string{
		"generic":    {"c9c55b6f822ee9a74c4e70619d8be68b51aef0f666f7c3f68294430068c3d414", "257dcadcba53d9fde541c281b6893f5612ad50b9efcb58a2c0a78232737b0a32"},
		"avx2":       {"99016069a574248f81dc8b723985fe5805742ad4609688599cb30c9e386e7d97", "28aded3021eecffc91cb0d894812eb86780d26fd8471c6dd7e081e0a4d764cdd"},
		"avxvnni":    {"99016069a574248f81dc8b723985fe5805742ad4609688599cb30c9e386e7d97", "28aded3021eecffc91cb0d894812eb86780d26fd8471c6dd7e081e0a4d764cdd"},
		"avx512":     {"99016069a574248f81dc8b723985fe5805742ad4609688599cb30c9e386e7d97", "e7dab87d81a75c51e017ce1502ceaa1598ad1585bbc7dffa3599279295af4e5a"},
		"avx512vnni": {"99016069a574248f81dc8b723985fe5805742ad4609688599cb30c9e386e7d97", "e7dab87d81a75c51e017ce1502ceaa1598ad1585bbc7dffa3599279295af4e5a"},
		"avx512amx":  {"99016069a574248f81dc8b723985fe5805742ad4609688599cb30c9e386e7d97", "e7dab87d81a75c51e017ce1502ceaa1598ad1585bbc7dffa3599279295af4e5a"},
	}
	sum := func(c *Checkpoint) string {
		d, err := c.Encode()
		if err != nil {
			t.Fatal(err)
		}
		s := sha256.Sum256(d)
		return hex.EncodeToString(s[:])
	}
	for i, a := range archs {
		n, err := New(a, env.Urim, env.EncodingCompact, 7)
		if err != nil {
			t.Fatal(err)
		}
		if got := sum(&Checkpoint{Net: n, Step: 3}); got != fresh[i] {
			t.Errorf("%v: checkpoint sha256 %s, want %s", a, got, fresh[i])
		}
		want, ok := trained[kernels.Backend()]
		if !ok {
			continue
		}
		tr, err := NewTrainer(n, TrainConfig{ValueWeight: 0.7, ClipNorm: 1, Schedule: Schedule{LR: 1e-2}}, 200)
		if err != nil {
			t.Fatal(err)
		}
		b := testBatch(t, env.Urim, env.EncodingCompact, 200, 5)
		for range 3 {
			if st := tr.Step(b); st.Score != 0 {
				t.Errorf("%v: score loss %v without a score head", a, st.Score)
			}
		}
		if got := sum(tr.Checkpoint()); got != want[i] {
			t.Errorf("%v on %s: trained checkpoint sha256 %s, want %s", a, kernels.Backend(), got, want[i])
		}
		tr.Close()
	}
}

// TestScoreHeadLayout: the head adds score.w [W, 1] and score.b [1] after
// the other tensors, which are drawn from the seed as without it.
func TestScoreHeadLayout(t *testing.T) {
	for _, a := range scoreArchs {
		plain, _ := New(a, env.Urim, env.EncodingCompact, 3)
		sc, err := New(withScore(a), env.Urim, env.EncodingCompact, 3)
		if err != nil {
			t.Fatal(err)
		}
		pp, sp := plain.Params(), sc.Params()
		if len(sp) != len(pp)+2 {
			t.Fatalf("%v: %d tensors with the head, %d without", a, len(sp), len(pp))
		}
		for i, p := range pp {
			if sp[i].Name != p.Name || !equalFloats(sp[i].W, p.W) {
				t.Fatalf("%v: tensor %d is %s with the head, %s without, or its weights differ", a, i, sp[i].Name, p.Name)
			}
		}
		w, b := sp[len(pp)], sp[len(pp)+1]
		if w.Name != "score.w" || w.Shape[0] != a.Width || w.Shape[1] != 1 || b.Name != "score.b" || b.Shape[0] != 1 {
			t.Fatalf("%v: the head is %s %v, %s %v", a, w.Name, w.Shape, b.Name, b.Shape)
		}
		if sc.NumWeights() != plain.NumWeights()+a.Width+1 {
			t.Errorf("%v: %d weights with the head, %d without", a, sc.NumWeights(), plain.NumWeights())
		}
		if got := withScore(a).String(); !strings.HasSuffix(got, "+score") {
			t.Errorf("String() = %q", got)
		}
	}
}

// TestScoreCheckpointRoundTrip: a network with the head, with and without
// optimizer state, saves and loads to the same bytes and says it has the
// head; a file without it says it has none; the header cannot drop the head's
// tensors.
func TestScoreCheckpointRoundTrip(t *testing.T) {
	a := withScore(Arch{Kind: KindResMLP, Width: 16, Depth: 1, LayerNorm: true})
	n, _ := New(a, env.Urim, env.EncodingCompact, 5)
	tr, err := NewTrainer(n, TrainConfig{ScoreWeight: 0.5, Schedule: Schedule{LR: 1e-2}}, 64)
	if err != nil {
		t.Fatal(err)
	}
	b := marginBatch(t, 64, 2)
	for range 3 {
		tr.Step(b)
	}
	dir := t.TempDir()
	for _, c := range []*Checkpoint{{Net: n}, tr.Checkpoint()} {
		path := filepath.Join(dir, "s.ckpt")
		if err := Save(path, c); err != nil {
			t.Fatal(err)
		}
		loaded, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if !loaded.Net.Arch().Score || loaded.Net.Arch() != a || (loaded.Optimizer != nil) != (c.Optimizer != nil) {
			t.Fatalf("loaded %v (optimizer %v), saved %v", loaded.Net.Arch(), loaded.Optimizer != nil, a)
		}
		d1, _ := c.Encode()
		d2, _ := loaded.Encode()
		if !bytes.Equal(d1, d2) || !bytes.Contains(d1, []byte(`"score":true`)) {
			t.Fatal("save, load, save changed the bytes, or the header does not record the head")
		}
		if err := loaded.Check(env.Urim, env.EncodingCompact, &a); err != nil {
			t.Fatal(err)
		}
		plain := a
		plain.Score = false
		if err := loaded.Check(env.Urim, env.EncodingCompact, &plain); !errors.Is(err, ErrMismatch) {
			t.Errorf("Check against the arch without the head: %v", err)
		}
	}
	// A resumed trainer takes the same next step.
	ck, _ := Load(filepath.Join(dir, "s.ckpt"))
	resumed, err := NewTrainerFrom(ck, TrainConfig{ScoreWeight: 0.5, Schedule: Schedule{LR: 1e-2}}, 64)
	if err != nil {
		t.Fatal(err)
	}
	s1, s2 := tr.Step(b), resumed.Step(b)
	if s1 != s2 || !equalFloats(n.flat, resumed.net.flat) {
		t.Fatalf("resumed training differs: %+v vs %+v", s1, s2)
	}
	// A file of a network without the head loads without it.
	old, _ := New(Arch{Kind: KindMLP, Width: 8, Depth: 1}, env.Urim, env.EncodingCompact, 1)
	d, _ := (&Checkpoint{Net: old}).Encode()
	if bytes.Contains(d, []byte("score")) {
		t.Fatal("the header of a network without the head mentions it")
	}
	c, err := Decode(d)
	if err != nil || c.Net.Arch().Score {
		t.Fatalf("decoded %v, %v", c, err)
	}
	// A header that claims the head for a payload without it, or lists
	// the head's tensors without claiming it, is corrupt.
	withHead, _ := New(withScore(Arch{Kind: KindMLP, Width: 8, Depth: 1}), env.Urim, env.EncodingCompact, 1)
	dh, _ := (&Checkpoint{Net: withHead}).Encode()
	for name, mutated := range map[string][]byte{
		"claimed": rewriteHeader(t, d, `"layer_norm":false`, `"layer_norm":false,"score":true`),
		"dropped": rewriteHeader(t, dh, `,"score":true`, ``),
	} {
		if _, err := Decode(mutated); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
}

// rewriteHeader replaces old by new in the header of checkpoint bytes d and
// fixes the lengths and checksums.
func rewriteHeader(t *testing.T, d []byte, old, new string) []byte {
	t.Helper()
	hlen := int(binary.LittleEndian.Uint32(d[12:]))
	h := string(d[preambleSize : preambleSize+hlen])
	if !strings.Contains(h, old) {
		t.Fatalf("no %q in the header %s", old, h)
	}
	h = strings.Replace(h, old, new, 1)
	out := append([]byte(nil), d[:preambleSize]...)
	binary.LittleEndian.PutUint32(out[12:], uint32(len(h)))
	binary.LittleEndian.PutUint32(out[28:], crc32.Checksum(out[:28], castagnoli))
	out = append(append(out, h...), d[preambleSize+hlen:len(d)-4]...)
	return resign(append(out, 0, 0, 0, 0))
}

// TestScorePredictIsPlain: with the head, Predict gives the policy and the
// values of the network without it, bit for bit, in fp32 and in int8 and
// for every batch size; PredictScore gives the same with the scores, which
// equal the trainer's forward pass.
func TestScorePredictIsPlain(t *testing.T) {
	obs, _ := testObs(t, env.Urim, env.EncodingCompact, 300, 9)
	for _, a := range scoreArchs {
		plain, _ := New(a, env.Urim, env.EncodingCompact, 4)
		sc, _ := New(withScore(a), env.Urim, env.EncodingCompact, 4)
		for _, prec := range []Precision{FP32, Int8} {
			for _, batch := range []int{1, 3, 64, 300} {
				pp, sp := plain.NewPredictor(batch), sc.NewPredictor(batch)
				pp.SetPrecision(prec)
				sp.SetPrecision(prec)
				l1, v1 := pp.Predict(obs, batch)
				l1, v1 = append([]float32(nil), l1...), append([]float32(nil), v1...)
				l2, v2 := sp.Predict(obs, batch)
				if !equalFloats(l1, l2) || !equalFloats(v1, v2) {
					t.Fatalf("%v %v batch %d: Predict with the head differs from without", a, prec, batch)
				}
				l3, v3, s3 := sp.PredictScore(obs, batch)
				if !equalFloats(l1, l3) || !equalFloats(v1, v3) || len(s3) != batch {
					t.Fatalf("%v %v batch %d: PredictScore's policy or values differ, or %d scores", a, prec, batch, len(s3))
				}
				for r, s := range s3 {
					if !(s >= -1 && s <= 1) {
						t.Fatalf("%v row %d: score %v", a, r, s)
					}
				}
				if _, _, none := pp.PredictScore(obs, batch); none != nil {
					t.Fatalf("%v: PredictScore without a head gave %d scores", a, len(none))
				}
			}
		}
		// The scores are the trainer's forward pass (in fp32).
		b := marginBatch(t, 300, 9)
		tr, _ := NewTrainer(sc, TrainConfig{ScoreWeight: 1}, 300)
		tr.Evaluate(b)
		_, _, s := sc.NewPredictor(300).PredictScore(b.Obs, 300)
		if !equalFloats(s, tr.ws.x[sc.g.score][:300]) {
			t.Fatalf("%v: PredictScore's scores are not the trainer's", a)
		}
		tr.Close()
	}
}

// TestScoreLossTrains: a score weight above 0 lowers the score loss on a
// fixed batch; at 0 the head's loss is reported but it gets no gradient,
// and the rest of the network trains as the network without the head does.
func TestScoreLossTrains(t *testing.T) {
	b := marginBatch(t, 200, 3)
	for _, a := range scoreArchs {
		sc, _ := New(withScore(a), env.Urim, env.EncodingCompact, 8)
		tr, err := NewTrainer(sc, TrainConfig{ScoreWeight: 1, Schedule: Schedule{LR: 3e-3}}, 200)
		if err != nil {
			t.Fatal(err)
		}
		first := tr.Evaluate(b)
		for range 60 {
			tr.Step(b)
		}
		last := tr.Evaluate(b)
		if !(last.Score < 0.5*first.Score) || first.Score <= 0 {
			t.Errorf("%v: score loss %.4f before 60 steps, %.4f after", a, first.Score, last.Score)
		}
		if d := last.Loss - (last.Policy + last.Value + last.Score); math.Abs(d) > 1e-9 {
			t.Errorf("%v: loss %v is not the sum of its parts (%v)", a, last.Loss, d)
		}
		tr.Close()

		// Weight 0: the same steps as without the head.
		sc0, _ := New(withScore(a), env.Urim, env.EncodingCompact, 8)
		plain, _ := New(a, env.Urim, env.EncodingCompact, 8)
		head := append([]float32(nil), sc0.params[len(sc0.params)-2].W...)
		t0, _ := NewTrainer(sc0, TrainConfig{ValueWeight: 0.5, Schedule: Schedule{LR: 3e-3}}, 200)
		tp, _ := NewTrainer(plain, TrainConfig{ValueWeight: 0.5, Schedule: Schedule{LR: 3e-3}}, 200)
		for range 5 {
			s0, sp := t0.Step(b), tp.Step(b)
			if s0.Policy != sp.Policy || s0.Value != sp.Value || s0.Score <= 0 || s0.Loss != sp.Loss {
				t.Fatalf("%v: weight 0 step %+v, without the head %+v", a, s0.LossStats, sp.LossStats)
			}
		}
		for i, p := range plain.params {
			if !equalFloats(p.W, sc0.params[i].W) {
				t.Fatalf("%v: %s trained otherwise beside a score head of weight 0", a, p.Name)
			}
		}
		for _, g := range t0.Grads()[len(plain.params):] {
			for _, v := range g.W {
				if v != 0 {
					t.Fatalf("%v: %s has gradient %v at weight 0", a, g.Name, v)
				}
			}
		}
		// Decoupled weight decay is 0 here: the head did not move.
		if !equalFloats(head, sc0.params[len(sc0.params)-2].W) {
			t.Errorf("%v: score.w moved at weight 0", a)
		}
		t0.Close()
		tp.Close()
	}
}

// TestScoreGradients checks the head's gradients, and the trunk's through
// it, against finite differences of the loss.
func TestScoreGradients(t *testing.T) {
	for _, a := range []Arch{{Kind: KindMLP, Width: 8, Depth: 2}, {Kind: KindResMLP, Width: 8, Depth: 1, LayerNorm: true}} {
		n, _ := New(withScore(a), env.Urim, env.EncodingCompact, 11)
		b := marginBatch(t, 200, 5)
		tr, _ := NewTrainer(n, TrainConfig{ValueWeight: 0.7, ScoreWeight: 0.8}, 200)
		tr.Gradients(b)
		for i, p := range n.params {
			g := tr.Grads()[i].W
			for _, j := range sampleIndices(len(p.W)) {
				old := p.W[j]
				const h = 1e-3
				p.W[j] = old + h
				up := tr.Evaluate(b).Loss
				p.W[j] = old - h
				down := tr.Evaluate(b).Loss
				p.W[j] = old
				fd := (up - down) / (2 * h)
				if d := math.Abs(fd - float64(g[j])); d > 1e-3+3e-2*math.Abs(fd) {
					t.Errorf("%v %s[%d]: gradient %.6g, finite difference %.6g", a, p.Name, j, g[j], fd)
				}
			}
		}
		tr.Close()
	}
}

// TestScoreTrainerErrors: a score weight needs a head and margins.
func TestScoreTrainerErrors(t *testing.T) {
	plain, _ := New(Arch{Kind: KindMLP, Width: 8, Depth: 1}, env.Urim, env.EncodingCompact, 1)
	if _, err := NewTrainer(plain, TrainConfig{ScoreWeight: 0.1}, 8); err == nil || !strings.Contains(err.Error(), "no score head") {
		t.Errorf("score weight without a head: %v", err)
	}
	sc, _ := New(withScore(Arch{Kind: KindMLP, Width: 8, Depth: 1}), env.Urim, env.EncodingCompact, 1)
	for _, w := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := NewTrainer(sc, TrainConfig{ScoreWeight: w}, 8); err == nil {
			t.Errorf("score weight %v: no error", w)
		}
	}
	tr, _ := NewTrainer(sc, TrainConfig{ScoreWeight: 0.1}, 8)
	defer tr.Close()
	b := testBatch(t, env.Urim, env.EncodingCompact, 8, 1)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "margin") {
			t.Errorf("a batch without margins: %v", r)
		}
	}()
	tr.Step(b)
}

// TestScoreAllocatesNothing: Predict, PredictScore and a training step of a
// network with the head allocate nothing, in fp32 and int8.
func TestScoreAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	for _, a := range []Arch{withScore(DefaultArch()), withScore(Arch{Kind: KindResMLP, Width: 64, Depth: 2, LayerNorm: true})} {
		n, _ := New(a, env.Urim, env.EncodingCompact, 1)
		obs, _ := testObs(t, env.Urim, env.EncodingCompact, 64, 1)
		for _, prec := range []Precision{FP32, Int8} {
			p := n.NewPredictor(64)
			p.SetPrecision(prec)
			p.PredictScore(obs, 64)
			if x := testing.AllocsPerRun(10, func() { p.Predict(obs, 64) }); x != 0 {
				t.Errorf("%v %v: Predict allocates %v times", a, prec, x)
			}
			if x := testing.AllocsPerRun(10, func() { p.PredictScore(obs, 64) }); x != 0 {
				t.Errorf("%v %v: PredictScore allocates %v times", a, prec, x)
			}
		}
		for _, threads := range []int{1, 2} {
			tr, _ := NewTrainer(n, TrainConfig{Threads: threads, ClipNorm: 1, ScoreWeight: 0.3}, 130)
			b := marginBatch(t, 130, 1)
			tr.Step(b)
			if x := testing.AllocsPerRun(5, func() { tr.Step(b) }); x != 0 {
				t.Errorf("%v, %d threads: Step allocates %v times", a, threads, x)
			}
			tr.Close()
		}
	}
}

// TestScoreThreadsSameBits: with the head, training and prediction give
// the same bits for any number of threads.
func TestScoreThreadsSameBits(t *testing.T) {
	var ref []float32
	for _, threads := range []int{1, 2, 4} {
		n, _ := New(withScore(Arch{Kind: KindResMLP, Width: 32, Depth: 2, LayerNorm: true}), env.Urim, env.EncodingCompact, 2)
		tr, _ := NewTrainer(n, TrainConfig{Threads: threads, ScoreWeight: 0.4, ClipNorm: 1}, 300)
		b := marginBatch(t, 300, 4)
		for range 3 {
			tr.Step(b)
		}
		p := n.NewPredictor(300)
		p.SetThreads(threads)
		l, v, s := p.PredictScore(b.Obs, 300)
		got := append(append(append(append([]float32(nil), n.flat...), l...), v...), s...)
		tr.Close()
		if ref == nil {
			ref = got
		} else if !equalFloats(ref, got) {
			t.Fatalf("%d threads give other weights or outputs than 1 thread", threads)
		}
	}
}

// TestScoreCustomLoss: a caller's loss (PPO's) leaves the head untrained.
func TestScoreCustomLoss(t *testing.T) {
	n, _ := New(withScore(Arch{Kind: KindMLP, Width: 8, Depth: 1}), env.Urim, env.EncodingCompact, 1)
	tr, _ := NewTrainer(n, TrainConfig{ScoreWeight: 1}, 16)
	defer tr.Close()
	b := marginBatch(t, 16, 1)
	tr.Step(b) // leaves a score gradient in the workspace
	tr.GradientsLoss(b.Obs, 16, func(logits, values []float32, rows, actions int, dl, dv []float32) float64 {
		for i := range dl {
			dl[i] = 0.01
		}
		for i := range dv {
			dv[i] = 0.02
		}
		return 1
	})
	for _, g := range tr.Grads()[len(tr.Grads())-2:] {
		for _, v := range g.W {
			if v != 0 {
				t.Fatalf("%s: gradient %v from a loss that does not read the head", g.Name, v)
			}
		}
	}
}

// TestNumpyScoreMatches: the numpy snippet of docs/nn.md reads a network
// with the score head from its export, and its score, forward and the
// network imported back agree with Go's PredictScore.
func TestNumpyScoreMatches(t *testing.T) {
	py := numpyPython()
	if py == "" {
		t.Skip("no python3 with numpy (apt-get install python3-numpy): skipping the numpy cross-check")
	}
	snippet := docSnippet(t)
	for _, a := range []Arch{withScore(Arch{Kind: KindMLP, Width: 16, Depth: 2}), withScore(Arch{Kind: KindResMLP, Width: 16, Depth: 2, LayerNorm: true})} {
		dir := t.TempDir()
		n, _ := New(a, env.Urim, env.EncodingCompact, 9)
		for i, p := range n.params { // non-zero biases and gains
			if s := n.g.specs[i]; s.init == initOne || s.init == initZero {
				for j := range p.W {
					p.W[j] += 0.2 * float32(math.Cos(float64(j+i)))
				}
			}
		}
		npzPath := filepath.Join(dir, "net.npz")
		if err := n.ExportNPZ(npzPath, 0); err != nil {
			t.Fatal(err)
		}
		back, _, err := ImportNPZ(npzPath)
		if err != nil || back.Arch() != a || !equalFloats(back.flat, n.flat) {
			t.Fatalf("%v: imported back as %v (%v)", a, back, err)
		}
		const batch = 40
		obs, _ := testObs(t, env.Urim, env.EncodingCompact, batch, 2)
		var buf bytes.Buffer
		rows := make([][]float32, batch)
		for r := range rows {
			rows[r] = obs[r*n.InputDim() : (r+1)*n.InputDim()]
		}
		if err := npyio.Write(&buf, rows); err != nil {
			t.Fatal(err)
		}
		obsPath := filepath.Join(dir, "obs.npy")
		if err := os.WriteFile(obsPath, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		script := strings.Replace(snippet, `"net.npz"`, `"`+npzPath+`"`, 1) + `
x = np.load("` + obsPath + `")
logits, values = forward(x)
assert meta["arch"]["score"] is True
print(json.dumps({"values": values.astype(float).tolist(), "scores": score(x).astype(float).tolist()}))
`
		cmd := exec.Command(py, "-c", script)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%v: python: %v\n%s", a, err, stderr.String())
		}
		var got struct{ Values, Scores []float64 }
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("%v: %v in %q", a, err, out)
		}
		_, values, scores := n.NewPredictor(batch).PredictScore(obs, batch)
		if len(got.Scores) != batch || len(got.Values) != batch {
			t.Fatalf("%v: numpy gave %d and %d rows", a, len(got.Values), len(got.Scores))
		}
		for r := range batch {
			if math.Abs(got.Scores[r]-float64(scores[r])) > 1e-5 || math.Abs(got.Values[r]-float64(values[r])) > 1e-5 {
				t.Fatalf("%v row %d: value %v and score %v in numpy, %v and %v in Go", a, r, got.Values[r], got.Scores[r], values[r], scores[r])
			}
		}
	}
}
