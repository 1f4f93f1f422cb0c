package env

import (
	"encoding/json"
	"testing"
)

func TestPositionRecordJSON(t *testing.T) {
	g := MustGame(Urim)
	s := g.Start()
	b, _ := json.Marshal(NewPositionRecord(2, &s, nil))
	if want := `{"game":2,"ply":0,"player":0,"pits":[3,3,3,3,3,3,3,3,3,3,3,3],"stores":[0,0],"legal":[0,1,2,3,4,5],"terminal":false}`; string(b) != want {
		t.Errorf("start:\n got %s\nwant %s", b, want)
	}
	var a int
	for !s.Terminal() {
		a = s.Legal().Nth(0)
		s.Play(a)
	}
	r := NewPositionRecord(0, &s, &a)
	f := s.FinalStores()
	if r.Stores != f || r.Stores[0]+r.Stores[1] != g.Rules().Total() || *r.Winner != s.Winner() || r.Reason != s.Reason().String() ||
		*r.MatchPoints != s.MatchPoints() || *r.Action != a {
		t.Errorf("terminal record %+v", r)
	}
	for _, p := range r.Pits {
		if p != 0 {
			t.Fatalf("terminal pits %v not emptied", r.Pits)
		}
	}
}
