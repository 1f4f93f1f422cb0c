package env

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// tracePath holds 300 random games of OpenSpiel's oware (commit 112b777),
// copied from the project's shared test data; the header explains the format.
const tracePath = "../testdata/openspiel-oware-300-games.txt.gz"

type traceMove struct {
	player, action int
	pits           [12]int
	scores         [2]int
	next           int // next player, or -4 when terminal
	legal          []int
}

type traceGame struct {
	moves   []traceMove
	returns [2]int
}

func readTraces(t *testing.T) []traceGame {
	t.Helper()
	f, err := os.Open(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var games []traceGame
	sc := bufio.NewScanner(zr)
	atoi := func(s string) int {
		v, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("trace: %v", err)
		}
		return v
	}
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		switch fields[0] {
		case "G":
			games = append(games, traceGame{})
		case "M":
			var m traceMove
			m.player, m.action = atoi(fields[2]), atoi(fields[3])
			for i := range 12 {
				m.pits[i] = atoi(fields[4+i])
			}
			m.scores = [2]int{atoi(fields[16]), atoi(fields[17])}
			m.next = atoi(fields[18])
			for _, a := range strings.Split(strings.TrimPrefix(fields[19], "legal="), ",") {
				m.legal = append(m.legal, atoi(a))
			}
			g := &games[len(games)-1]
			g.moves = append(g.moves, m)
		case "E":
			g := &games[len(games)-1]
			g.returns = [2]int{atoi(fields[2]), atoi(fields[3])}
			if atoi(fields[5]) != len(g.moves) {
				t.Fatalf("trace game %s: %s moves recorded, %d read", fields[1], fields[5], len(g.moves))
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return games
}

// TestOpenSpielOware replays OpenSpiel's games under the oware preset and
// demands the same legal actions, boards, scores, endings and winners.
func TestOpenSpielOware(t *testing.T) {
	games := readTraces(t)
	if len(games) != 300 {
		t.Fatalf("read %d games, want 300", len(games))
	}
	g := MustGame(Oware)
	reasons := map[EndReason]int{}
	for gi, tg := range games {
		s := g.Start()
		for mi, m := range tg.moves {
			where := fmt.Sprintf("game %d move %d", gi, mi)
			if s.Terminal() {
				t.Fatalf("%s: engine ended the game (%s) before OpenSpiel", where, s.Reason())
			}
			if s.ToMove() != m.player {
				t.Fatalf("%s: player %d to move, OpenSpiel %d", where, s.ToMove(), m.player)
			}
			if got := fmt.Sprint(s.Legal().Actions()); got != fmt.Sprint(m.legal) {
				t.Fatalf("%s: legal %s, OpenSpiel %v", where, got, m.legal)
			}
			next, err := s.Apply(m.action)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			s = next
			if m.next == -4 {
				if !s.Terminal() {
					t.Fatalf("%s: OpenSpiel ended the game, engine did not", where)
				}
				// OpenSpiel empties the rows into the stores at the end.
				for i, v := range m.pits {
					if v != 0 {
						t.Fatalf("%s: trace pit %d holds %d at the end", where, i, v)
					}
				}
				if f := s.FinalStores(); f != m.scores {
					t.Fatalf("%s: final stores %v, OpenSpiel %v", where, f, m.scores)
				}
				continue
			}
			if s.Terminal() {
				t.Fatalf("%s: engine ended the game (%s), OpenSpiel did not", where, s.Reason())
			}
			if got := [2]int{s.Store(0), s.Store(1)}; got != m.scores {
				t.Fatalf("%s: stores %v, OpenSpiel %v", where, got, m.scores)
			}
			for i := range 12 {
				if s.Pit(i) != m.pits[i] {
					t.Fatalf("%s: pits %v, OpenSpiel %v", where, s.Pits(), m.pits)
				}
			}
			if s.ToMove() != m.next {
				t.Fatalf("%s: next player %d, OpenSpiel %d", where, s.ToMove(), m.next)
			}
		}
		if !s.Terminal() {
			t.Fatalf("game %d: OpenSpiel's game ended, the engine's did not", gi)
		}
		reasons[s.Reason()]++
		wantWinner := -1
		if tg.returns[0] > 0 {
			wantWinner = 0
		} else if tg.returns[1] > 0 {
			wantWinner = 1
		}
		if s.Winner() != wantWinner {
			t.Fatalf("game %d: winner %d, OpenSpiel returns %v", gi, s.Winner(), tg.returns)
		}
		if r := s.Rewards(RewardWinLoss); int(r[0]) != tg.returns[0] || int(r[1]) != tg.returns[1] {
			t.Fatalf("game %d: win/loss rewards %v, OpenSpiel returns %v", gi, r, tg.returns)
		}
	}
	t.Logf("endings: %v", reasons)
}
