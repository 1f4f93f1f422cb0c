package env

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// NewPosition builds what ParsePosition reads from the same position without
// a history, on positions of random games of every preset.
func TestNewPositionIsParsePosition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, name := range PresetNames() {
		g, _ := Preset(name)
		for range 20 {
			s := g.Start()
			for !s.Terminal() {
				m := s.Legal()
				s.Play(m.Nth(rng.IntN(m.Count())))
				var pits [16]uint8
				copy(pits[:], s.pits[:g.n])
				got, err := g.NewPosition(&pits, s.stores, int(s.toMove), s.ply)
				if err != nil {
					t.Fatalf("%s: NewPosition of %v: %v", name, s.String(), err)
				}
				text := s.String()
				want, err := g.ParsePosition(text[:positionFields(text)])
				if err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() || got.Legal() != want.Legal() || got.Terminal() != want.Terminal() {
					t.Fatalf("%s: NewPosition gives %v (legal %b), ParsePosition %v (legal %b)", name, got.String(), got.Legal(), want.String(), want.Legal())
				}
			}
		}
	}
}

// positionFields returns the length of the first four fields of a position's
// notation (the history field dropped).
func positionFields(text string) int {
	fields := 0
	for i := 0; i < len(text); i++ {
		if text[i] == ' ' {
			fields++
			if fields == 4 {
				return i
			}
		}
	}
	return len(text)
}

func TestNewPositionRefuses(t *testing.T) {
	g, _ := Preset("urim")
	start := g.Start()
	var pits [16]uint8
	copy(pits[:], start.pits[:g.n])
	if _, err := g.NewPosition(&pits, [2]uint8{1, 0}, 0, 0); !errors.Is(err, ErrNotation) {
		t.Errorf("one seed too many: got %v, want ErrNotation", err)
	}
	if _, err := g.NewPosition(&pits, [2]uint8{}, 2, 0); !errors.Is(err, ErrNotation) {
		t.Errorf("player 2: got %v, want ErrNotation", err)
	}
	over := pits
	over[0], over[1] = over[0]+over[1], 0
	over[0] = 250
	if _, err := g.NewPosition(&over, [2]uint8{}, 0, 0); !errors.Is(err, ErrNotation) {
		t.Errorf("a pit over capacity: got %v, want ErrNotation", err)
	}
}

func TestNewPositionAllocatesNothing(t *testing.T) {
	g, _ := Preset("urim")
	start := g.Start()
	var pits [16]uint8
	copy(pits[:], start.pits[:g.n])
	if n := testing.AllocsPerRun(100, func() {
		if _, err := g.NewPosition(&pits, [2]uint8{}, 1, 7); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("NewPosition allocates %v times a call", n)
	}
}
