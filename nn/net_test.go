package nn

import (
	"errors"
	"math"
	"path/filepath"
	"testing"

	"github.com/urim-rl/urim/env"
)

// testObs returns the encoded observations of n positions reached by
// playing random games, so the inputs are realistic.
func testObs(t testing.TB, rules env.Rules, enc env.Encoding, n int, seed uint64) (obs, mask []float32) {
	t.Helper()
	g := env.MustGame(rules)
	e := env.NewEncoder(g, enc)
	p := rules.PitsPerRow
	obs = make([]float32, n*e.Dim())
	mask = make([]float32, n*p)
	s := g.Start()
	x := seed | 1
	for i := 0; i < n; i++ {
		if s.Terminal() {
			s = g.Start()
		}
		e.Encode(obs[i*e.Dim():], &s)
		m := s.Legal()
		for a := 0; a < p; a++ {
			if m.Has(a) {
				mask[i*p+a] = 1
			}
		}
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		s.Play(m.Nth(int(x % uint64(m.Count()))))
	}
	return obs, mask
}

func archs() []Arch {
	return []Arch{
		DefaultArch(),
		{Kind: KindMLP, Width: 16, Depth: 2, LayerNorm: true},
		{Kind: KindResMLP, Width: 16, Depth: 2},
		{Kind: KindResMLP, Width: 16, Depth: 2, LayerNorm: true},
	}
}

func TestPredictShapesAndRowIndependence(t *testing.T) {
	for _, arch := range archs() {
		for _, enc := range []env.Encoding{env.EncodingCompact, env.EncodingThermometer} {
			n, err := New(arch, env.Urim, enc, 1)
			if err != nil {
				t.Fatal(err)
			}
			const batch = 300 // three row blocks, the last one partial
			obs, _ := testObs(t, env.Urim, enc, batch, 7)
			p := n.NewPredictor(batch)
			logits, values := p.Predict(obs, batch)
			if len(logits) != batch*n.Actions() || len(values) != batch {
				t.Fatalf("%v: shapes %d %d", arch, len(logits), len(values))
			}
			logits = append([]float32(nil), logits...)
			values = append([]float32(nil), values...)
			one := n.NewPredictor(1)
			for r := 0; r < batch; r += 17 {
				l1, v1 := one.Predict(obs[r*n.InputDim():], 1)
				if math.Abs(float64(v1[0]-values[r])) > 1e-6 || values[r] < -1 || values[r] > 1 {
					t.Fatalf("%v %v row %d: value %v alone, %v in the batch", arch, enc, r, v1[0], values[r])
				}
				for a := range l1 {
					if math.Abs(float64(l1[a]-logits[r*n.Actions()+a])) > 1e-5 {
						t.Fatalf("%v row %d: logit %d differs", arch, r, a)
					}
				}
			}
		}
	}
}

func TestPredictAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under the race detector")
	}
	n, _ := New(DefaultArch(), env.Urim, env.EncodingCompact, 1)
	obs, _ := testObs(t, env.Urim, env.EncodingCompact, 64, 1)
	p := n.NewPredictor(64)
	if a := testing.AllocsPerRun(10, func() { p.Predict(obs, 64) }); a != 0 {
		t.Fatalf("Predict allocates %v times per call", a)
	}
}

func TestNewIsSeeded(t *testing.T) {
	a, _ := New(DefaultArch(), env.Urim, env.EncodingCompact, 5)
	b, _ := New(DefaultArch(), env.Urim, env.EncodingCompact, 5)
	c, _ := New(DefaultArch(), env.Urim, env.EncodingCompact, 6)
	if !equalFloats(a.flat, b.flat) || equalFloats(a.flat, c.flat) {
		t.Fatal("weights are not a function of the seed")
	}
	// 3×256 MLP on the compact encoding of urim (17 columns, 6 actions).
	want := 17*256 + 256 + 2*(256*256+256) + 256*6 + 6 + 256 + 1
	if a.NumWeights() != want || a.InputDim() != 17 {
		t.Fatalf("%d weights, input %d", a.NumWeights(), a.InputDim())
	}
}

func equalFloats(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

func TestSaveLoadRoundTrip(t *testing.T) {
	for _, arch := range archs() {
		n, _ := New(arch, env.Urim7, env.EncodingThermometer, 3)
		path := filepath.Join(t.TempDir(), "net.ckpt")
		if err := Save(path, &Checkpoint{Net: n, Step: 42}); err != nil {
			t.Fatal(err)
		}
		c, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if c.Step != 42 || c.Optimizer != nil || c.Net.Arch() != n.Arch() || !equalFloats(c.Net.flat, n.flat) {
			t.Fatalf("%v: round trip changed the checkpoint", arch)
		}
		if err := c.Check(env.Urim7, env.EncodingThermometer, &arch); err != nil {
			t.Fatal(err)
		}
	}
}

// TestInputDimIsTheEncoders checks that a network reads exactly the rows the
// env encoder (and so the Vec) writes, for every preset and encoding.
func TestInputDimIsTheEncoders(t *testing.T) {
	for _, name := range env.PresetNames() {
		r, _ := env.PresetRules(name)
		for _, enc := range []env.Encoding{env.EncodingCompact, env.EncodingThermometer} {
			n, err := New(Arch{Width: 4, Depth: 1}, r, enc, 1)
			if err != nil {
				t.Fatal(err)
			}
			if want := env.NewEncoder(env.MustGame(r), enc).Dim(); n.InputDim() != want || n.Actions() != r.PitsPerRow {
				t.Errorf("%s %v: input %d, actions %d; the encoder writes %d columns", name, enc, n.InputDim(), n.Actions(), want)
			}
		}
	}
	if _, err := New(Arch{Width: 4, Depth: 1}, env.Rules{}, env.EncodingCompact, 1); err == nil {
		t.Error("invalid rules accepted")
	}
	if _, err := New(Arch{Width: 4, Depth: 1}, env.Urim, env.Encoding(9), 1); err == nil {
		t.Error("unknown encoding accepted")
	}
	for _, a := range []Arch{{Kind: "cnn", Width: 4, Depth: 1}, {Width: 0, Depth: 1}, {Width: 4, Depth: 0}, {Width: MaxWidth + 1, Depth: 1}} {
		if _, err := New(a, env.Urim, env.EncodingCompact, 1); err == nil {
			t.Errorf("%+v accepted", a)
		}
	}
}

func TestCopyWeightsFrom(t *testing.T) {
	a, _ := New(DefaultArch(), env.Urim, env.EncodingCompact, 1)
	b, _ := New(DefaultArch(), env.Urim, env.EncodingCompact, 2)
	if err := b.CopyWeightsFrom(a); err != nil || !equalFloats(a.flat, b.flat) {
		t.Fatalf("copy: %v", err)
	}
	c, _ := New(DefaultArch(), env.Oware, env.EncodingCompact, 1)
	if err := c.CopyWeightsFrom(a); !errors.Is(err, ErrMismatch) {
		t.Fatalf("copy across rules: %v", err)
	}
	if d := a.Clone(); !equalFloats(a.flat, d.flat) || &d.flat[0] == &a.flat[0] {
		t.Fatal("Clone does not copy")
	}
}
