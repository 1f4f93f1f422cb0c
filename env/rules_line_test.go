package env

import (
	"reflect"
	"testing"
)

func TestRulesLineRoundTrip(t *testing.T) {
	for _, name := range PresetNames() {
		r, _ := PresetRules(name)
		if line := FormatRulesLine(r); line != name {
			t.Errorf("preset %s written as %q", name, line)
		}
		r.MaxPlies = 200
		r.Name = "my rules"
		line := FormatRulesLine(r)
		back, err := ParseRulesLine(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		r.Name = "custom"
		if !reflect.DeepEqual(back, r) {
			t.Errorf("%q read back as %+v, want %+v", line, back, r)
		}
	}
	if r, err := ParseRulesLine("urim max_plies=80"); err != nil || r.MaxPlies != 80 || r.PitsPerRow != 6 {
		t.Errorf("preset with a change: %+v, %v", r, err)
	}
	for _, bad := range []string{"", "urim colour=red", "urim pits_per_row=9", "trigger=x"} {
		if _, err := ParseRulesLine(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
