package env

import "testing"

func TestRulesDiff(t *testing.T) {
	renamed, _ := PresetRules("urim")
	renamed.Name = "mine"
	renamed.Trigger = []int{3, 2, 3}
	if key, _, _ := Urim.Diff(renamed); key != "" || !Urim.SamePlay(renamed) {
		t.Fatalf("a renamed urim with its trigger reordered differs at %q", key)
	}
	if key, a, b := Urim.Diff(Urim4); key != "seeds_per_pit" || a != 3 || b != 4 {
		t.Fatalf("urim vs urim4: %q %v %v", key, a, b)
	}
	if key, _, _ := Urim.Diff(Oware); key == "" || Urim.SamePlay(Oware) {
		t.Fatal("urim plays as oware")
	}
}
