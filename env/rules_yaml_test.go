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
		{"preset: urim\ncapacity: [1\n", "did not find expected"},
		// Issue 9: fractions were cut to integers, a second document and
		// non-finite numbers were ignored.
		{"preset: urim\npits_per_row: 7.9\n", `bad.yaml:2: pits_per_row: want an integer, got "7.9"`},
		{"preset: urim\nseeds_per_pit: 3.99\n", `bad.yaml:2: seeds_per_pit: want an integer, got "3.99"`},
		{"preset: urim\nmax_plies: .nan\n", `bad.yaml:2: max_plies: want an integer, got ".nan"`},
		{"preset: urim\n---\npreset: oware\n", "bad.yaml:2: a second YAML document"},
		{"preset: urim\ncapacity: 1\n", "bad.yaml:2: capacity: env: invalid rules: capacity"},
		{"preset: urim\ncapacity: 17\ncapacity: 12\n", "bad.yaml:3: capacity: given twice"},
		{"preset: mancala\n", "bad.yaml:1: preset: env: unknown rules preset"},
		{"preset: urim\ngrand_slam: maybe\n", "grand_slam"},
	} {
		_, err := DecodeRules(strings.NewReader(c.doc), "bad.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "bad.yaml") {
			t.Errorf("%q: error %v, want one naming %q and the file", c.doc, err, c.want)
		}
	}
}

// TestDecodeRulesNamesCustomRulesAfterTheirFile: rules that change their
// preset are not called by the preset's name (issue 9), unless named.
func TestDecodeRulesNamesCustomRulesAfterTheirFile(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"preset: urim\nseeds_per_pit: 5\n", "five.yaml"},
		{"preset: urim\n", "urim"},
		{"preset: urim\nname: urim5\nseeds_per_pit: 5\n", "urim5"},
	} {
		r, err := DecodeRules(strings.NewReader(c.doc), "five.yaml")
		if err != nil || r.Name != c.want {
			t.Errorf("%q: name %q (err %v), want %q", c.doc, r.Name, err, c.want)
		}
	}
}
