package env

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestEncoderMatchesVecRows checks that a single-state Encoder writes exactly
// the Vec's observation rows, for every encoding and preset, over many random
// positions: a network fed through the Encoder (search, play, datasets) sees
// what it saw in training on the Vec.
func TestEncoderMatchesVecRows(t *testing.T) {
	for _, preset := range []Rules{Urim, Urim7, Urim4, Oware} {
		for _, e := range []Encoding{EncodingCompact, EncodingThermometer} {
			g := MustGame(preset)
			name := preset.Name
			v, err := NewVec(g, 32, VecOptions{Encoding: e, Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			enc := NewEncoder(g, e)
			if enc.Dim() != v.ObsDim() || enc.Encoding() != e {
				t.Fatalf("%v/%s: encoder dim %d, Vec %d", name, e, enc.Dim(), v.ObsDim())
			}
			row := make([]float32, enc.Dim())
			rng := rand.New(rand.NewPCG(1, 2))
			actions := make([]int32, v.Len())
			checked := 0
			for step := 0; step < 300; step++ {
				for i := range v.Len() {
					s := v.State(i)
					if s.Terminal() {
						continue
					}
					enc.Encode(row, &s)
					d := enc.Dim()
					if want := v.Obs()[i*d : (i+1)*d]; !slices.Equal(row, want) {
						t.Fatalf("%v/%s step %d game %d (%s):\nencoder %v\nvec     %v", name, e, step, i, s.String(), row, want)
					}
					checked++
				}
				for i, m := range v.Legal() {
					if m == 0 {
						actions[i] = 0
						continue
					}
					actions[i] = int32(m.Nth(rng.IntN(m.Count())))
				}
				if err := v.Step(actions); err != nil {
					t.Fatal(err)
				}
			}
			v.Close()
			if checked < 5000 {
				t.Fatalf("%v/%s: only %d positions checked", name, e, checked)
			}
		}
	}
}
