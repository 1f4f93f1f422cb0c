package env

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// historyExample is the documented position with a history: urim after the
// moves 3 and 2 from the start.
func historyExample() State {
	s := MustGame(Urim).Start()
	s.Play(3)
	s.Play(2)
	return s
}

// notationLine matches a position in urim's notation on a line of its own
// (in a Markdown code block, or a doc comment's indented block).
var notationLine = regexp.MustCompile(`^(?://\s*)?([0-9,]+/[0-9,]+ \d+-\d+ [SN] \d+(?: h:\S+)?)$`)

// TestDocumentedPositions checks every position written in the docs and in
// the notation's doc comment: each parses under urim (the parser checks the
// seed count and that the history replays to the board), and the example
// with a history is the one the text describes, where moves 3, 2 lead. The
// old example held 49 seeds and the engine refused it.
func TestDocumentedPositions(t *testing.T) {
	g := MustGame(Urim)
	want := historyExample().String()
	for _, file := range []string{"notation.go", "../docs/rules.md", "../docs/protocol.md"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		found, withHistory := 0, 0
		for i, line := range strings.Split(string(data), "\n") {
			m := notationLine.FindStringSubmatch(strings.TrimSpace(line))
			if m == nil {
				continue
			}
			found++
			s, err := g.ParsePosition(m[1])
			if err != nil {
				t.Errorf("%s:%d: %v", file, i+1, err)
				continue
			}
			if s.String() != m[1] {
				t.Errorf("%s:%d: %q prints back as %q", file, i+1, m[1], s.String())
			}
			if strings.Contains(m[1], " h:") {
				withHistory++
				if m[1] != want {
					t.Errorf("%s:%d: the example with history is %q; moves 3, 2 lead to %q", file, i+1, m[1], want)
				}
			}
		}
		if found == 0 || withHistory == 0 {
			t.Errorf("%s: %d positions, %d with history: the examples moved?", file, found, withHistory)
		}
	}
}
