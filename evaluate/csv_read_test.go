package evaluate

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
)

func TestReadCSVRoundTrip(t *testing.T) {
	g := env.MustGame(env.Urim)
	var games []Record
	for i := range 3 {
		a, _ := agents.New("random", uint64(i+1))
		b, _ := agents.New("greedy", uint64(i+7))
		r, err := Play(context.Background(), g, [2]agents.Agent{a, b}, g.RandomOpening(2, uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		r.Players, r.Specs, r.Seed, r.Index = [2]string{"random", "greedy"}, [2]string{"random", "greedy"}, uint64(100+i), i
		games = append(games, r)
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, games); err != nil {
		t.Fatal(err)
	}
	back, err := ReadCSV(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, games) {
		t.Fatalf("read back\n%+v\nwant\n%+v", back, games)
	}
	for i := range back {
		if err := back[i].Check(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReadCSVBadInput(t *testing.T) {
	head := strings.Join(CSVHeader, ",")
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "empty file"},
		{"no column", "rules,moves\nurim,1 2\n", `no "max_plies" column`},
		{"bad move", head + "\nurim,0,a,b,random,random,1,0,,1 x,2,12,24,0,3,north,no_legal_move\n", `line 2: column moves: action "x"`},
		{"bad seed", head + "\nurim,0,a,b,random,random,-1,0,,1,1,12,24,0,3,north,no_legal_move\n", "column seed"},
	} {
		_, err := ReadCSV(strings.NewReader(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}
