package env

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// refGame is a deliberately plain second implementation of docs/rules.md, written
// from the text and not from the engine, used to cross-check every preset.
type refGame struct {
	r      Rules
	pits   []int
	stores [2]int
	player int
	seen   map[string]bool // positions since the last capture
	ply    int
	over   bool
}

func newRef(r Rules) *refGame {
	g := &refGame{r: r, pits: make([]int, 2*r.PitsPerRow), seen: map[string]bool{}}
	for i := range g.pits {
		g.pits[i] = r.SeedsPerPit
	}
	g.seen[g.key()] = true
	g.over = len(g.legal()) == 0
	return g
}

func (g *refGame) key() string { return fmt.Sprint(g.pits, g.stores, g.player) }

func (g *refGame) owner(i int) int { return i / g.r.PitsPerRow }

// sowFrom returns the board after sowing pit o, and the last pit.
func (g *refGame) sowFrom(o int) ([]int, int) {
	b := slices.Clone(g.pits)
	n := b[o]
	b[o] = 0
	i := o
	for n > 0 {
		i = (i + 1) % len(b)
		if i == o || (g.r.Capacity > 0 && b[i] >= g.r.Capacity) {
			continue
		}
		b[i]++
		n--
	}
	return b, i
}

func (g *refGame) legal() []int {
	if g.r.EndOnMajority {
		half := g.r.Total() / 2
		if g.stores[0] > half || g.stores[1] > half || (g.stores[0] == half && g.stores[1] == half) {
			return nil
		}
	}
	P := g.r.PitsPerRow
	oppEmpty := true
	for i := range g.pits {
		if g.owner(i) != g.player && g.pits[i] > 0 {
			oppEmpty = false
		}
	}
	var out []int
	for a := 0; a < P; a++ {
		o := g.player*P + a
		if g.pits[o] == 0 {
			continue
		}
		if oppEmpty {
			b, _ := g.sowFrom(o)
			fed := false
			for i := range b {
				if g.owner(i) != g.player && b[i] > 0 {
					fed = true
				}
			}
			if !fed {
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

func (g *refGame) play(a int) {
	o := g.player*g.r.PitsPerRow + a
	b, last := g.sowFrom(o)
	captured := 0
	if g.owner(last) != g.player && slices.Contains(g.r.Trigger, b[last]) {
		first := last
		for first-1 >= 0 && g.owner(first-1) != g.player && slices.Contains(g.r.Chain, b[first-1]) {
			first--
		}
		left := 0
		for i := range b {
			if g.owner(i) != g.player && (i < first || i > last) {
				left += b[i]
			}
		}
		if left > 0 || g.r.GrandSlam == GrandSlamCapture {
			for i := first; i <= last; i++ {
				captured += b[i]
				b[i] = 0
			}
		}
	}
	g.pits = b
	g.stores[g.player] += captured
	g.player = 1 - g.player
	if captured > 0 {
		clear(g.seen)
	}
	k := g.key()
	repeated := g.seen[k]
	g.seen[k] = true
	g.ply++
	g.over = repeated || len(g.legal()) == 0 || (g.r.MaxPlies > 0 && g.ply >= g.r.MaxPlies)
}

// TestAgainstReference plays random games of every preset with the engine
// and the reference side by side.
func TestAgainstReference(t *testing.T) {
	games := 400
	if testing.Short() {
		games = 60
	}
	rng := rand.New(rand.NewPCG(7, 11))
	// quiet never captures (a pit would need all 12 seeds), so its games are
	// one long run that ends by repetition, often after hundreds of plies:
	// it exercises the history beyond what a State holds inline.
	quiet := Urim
	quiet.Name, quiet.SeedsPerPit, quiet.Trigger, quiet.Chain, quiet.MaxPlies = "quiet", 1, []int{12}, nil, 1500
	rulesets := []Rules{Urim, Urim7, Urim4, Oware, quiet}
	for _, r := range rulesets {
		g, name := MustGame(r), r.Name
		n := games
		if r.Name == "quiet" {
			n = games / 10
		}
		long := 0
		for gi := 0; gi < n; gi++ {
			s := g.Start()
			ref := newRef(g.Rules())
			for {
				where := fmt.Sprintf("%s game %d ply %d (%s)", name, gi, s.Ply(), s.String())
				if s.Terminal() != ref.over {
					t.Fatalf("%s: terminal %v (%s), reference %v", where, s.Terminal(), s.Reason(), ref.over)
				}
				if !slices.Equal(s.Pits(), ref.pits) || s.Store(0) != ref.stores[0] || s.Store(1) != ref.stores[1] {
					t.Fatalf("%s: reference board %v %v", where, ref.pits, ref.stores)
				}
				if s.Terminal() {
					if s.Quiet() > histMoves {
						long++
					}
					break
				}
				if got, want := s.Legal().Actions(), ref.legal(); !slices.Equal(got, want) {
					t.Fatalf("%s: legal %v, reference %v", where, got, want)
				}
				checkInvariants(t, g, &s)
				a := s.Legal().Nth(rng.IntN(s.Legal().Count()))
				s.Play(a)
				ref.play(a)
			}
		}
		if r.Name == "quiet" && long == 0 {
			t.Errorf("no quiet game ran past %d plies: the long-history path went untested", histMoves)
		}
	}
}

// checkInvariants asserts what must hold in every position: seeds are
// conserved, no pit exceeds capacity, and the mask holds exactly the actions
// that Apply accepts.
func checkInvariants(t *testing.T, g *Game, s *State) {
	t.Helper()
	sum := s.Store(0) + s.Store(1)
	for i := 0; i < g.Pits(); i++ {
		sum += s.Pit(i)
		if c := g.Rules().Capacity; c > 0 && s.Pit(i) > c {
			t.Fatalf("%s: pit %d holds %d > capacity %d", s, i, s.Pit(i), c)
		}
	}
	if sum != g.Total() {
		t.Fatalf("%s: %d seeds, want %d", s, sum, g.Total())
	}
	for a := -1; a <= g.PitsPerRow(); a++ {
		_, err := s.Apply(a)
		if (err == nil) != s.Legal().Has(a) {
			t.Fatalf("%s: action %d: Apply error %v but mask %v", s, a, err, s.Legal().Actions())
		}
	}
	if f := s.FinalStores(); f[0]+f[1] != g.Total() {
		t.Fatalf("%s: final stores %v do not sum to %d", s, f, g.Total())
	}
}

// FuzzPlay treats the input as a sequence of action choices and checks the
// invariants after every move, on every preset.
func FuzzPlay(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5})
	f.Add([]byte{5, 5, 5, 5, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, choices []byte) {
		for _, name := range PresetNames() {
			g, _ := Preset(name)
			s := g.Start()
			for _, c := range choices {
				if s.Terminal() {
					break
				}
				m := s.Legal()
				s.Play(m.Nth(int(c) % m.Count()))
				checkInvariants(t, g, &s)
				checkRoundTrip(t, g, s)
			}
		}
	})
}

// FuzzParsePosition feeds arbitrary text to the parser: it must not panic,
// and whatever it accepts must print back to a form that parses to the same
// state.
func FuzzParsePosition(f *testing.F) {
	f.Add("3,3,3,3,3,3/3,3,3,3,3,3 0-0 S 0")
	f.Add(historyExample().String())                                       // generated, so it is a position the engine reaches
	f.Add("4,4,0,5,5,5/5,5,4,4,4,4 0-0 S 2 h:4,4,4,4,4,4/4,4,4,4,4,4:3.2") // 49 seeds: refused
	f.Add("1,0,0,0,0,0/1,0,0,0,0,0 17-17 S 0")
	f.Add("0,0,0,0,0,0/0,0,0,0,0,0 27-9 N 40")
	g := MustGame(Urim)
	f.Fuzz(func(t *testing.T, text string) {
		s, err := g.ParsePosition(text)
		if err != nil {
			return
		}
		checkInvariants(t, g, &s)
		checkRoundTrip(t, g, s)
	})
}
