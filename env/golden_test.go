package env

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden game records in testdata/golden")

// TestGoldenGames plays one seeded random game per preset and compares every
// position, in notation, with the record in testdata/golden. Regenerate the
// records with `go test ./env -run Golden -update` only after a deliberate
// change of behaviour (and bump RulesVersion).
func TestGoldenGames(t *testing.T) {
	for _, name := range PresetNames() {
		g, _ := Preset(name)
		rng := rand.New(rand.NewPCG(2024, uint64(len(name))))
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n# seeded random game; one position per line: notation | legal actions | action played\n", g.Rules())
		s := g.Start()
		for !s.Terminal() {
			a := s.Legal().Nth(rng.IntN(s.Legal().Count()))
			fmt.Fprintf(&b, "%s | %v | %d\n", s.String(), s.Legal().Actions(), a)
			s.Play(a)
		}
		fmt.Fprintf(&b, "%s | end %s | final %v | winner %d | match points %v\n", s.String(), s.Reason(), s.FinalStores(), s.Winner(), s.MatchPoints())
		path := filepath.Join("..", "testdata", "golden", name+".txt")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		got := strings.Split(b.String(), "\n")
		for i, line := range strings.Split(string(want), "\n") {
			if i >= len(got) || got[i] != line {
				g := "<missing>"
				if i < len(got) {
					g = got[i]
				}
				t.Fatalf("%s line %d:\n got %s\nwant %s", path, i+1, g, line)
			}
		}
	}
}
