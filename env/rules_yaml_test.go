package env

import (
	"strings"
	"testing"
)

func TestDecodeRules(t *testing.T) {
	r, err := DecodeRules(strings.NewReader("preset: urim\nmax_plies: 300\nname: capped\n"), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if r.PitsPerRow != 6 || r.Capacity != 17 || r.MaxPlies != 300 || r.Name != "capped" || len(r.Chain) != 3 {
		t.Fatalf("decoded %+v", r)
	}
	full := `pits_per_row: 7
seeds_per_pit: 2
capacity: 0
trigger: [2, 3]
chain: [2, 3]
grand_slam: no_capture
`
	r, err = DecodeRules(strings.NewReader(full), "full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewGame(r); err != nil || r.Name != "full.yaml" {
		t.Fatalf("full rules: %v (name %q)", err, r.Name)
	}
	for _, c := range []struct{ doc, want string }{
		{"preset: urim\npits_per_row: 9\n", "pits_per_row"},
		{"preset: urim\ntrigger: []\n", "chain"},
		{"preset: urim\ncapacty: 12\n", "capacty"},
		{"preset: urim\ncapacity: [1\n", "line"},
		{"preset: mancala\n", "unknown rules preset"},
		{"preset: urim\ngrand_slam: maybe\n", "grand_slam"},
	} {
		_, err := DecodeRules(strings.NewReader(c.doc), "bad.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "bad.yaml") {
			t.Errorf("%q: error %v, want one naming %q and the file", c.doc, err, c.want)
		}
	}
}
