package env

import (
	"fmt"
	"reflect"
	"slices"
)

// Diff compares the play of two rule sets: every field but the informational
// Name, with Trigger and Chain compared as sets. It returns the YAML key of
// the first field that differs and the two values (r's first), or "" when r
// and o play the same game. Networks, tables and agents made for one rule
// set use it to refuse another, whatever either is called.
func (r Rules) Diff(o Rules) (key string, mine, theirs any) {
	a, b := r.playKey(), o.playKey()
	if reflect.DeepEqual(a, b) {
		return "", nil, nil
	}
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := range va.NumField() {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			return va.Type().Field(i).Tag.Get("yaml"), va.Field(i).Interface(), vb.Field(i).Interface()
		}
	}
	return "rules", a, b // not reached: some field differs
}

// SamePlay reports whether r and o play the same game (see [Rules.Diff]).
func (r Rules) SamePlay(o Rules) bool {
	key, _, _ := r.Diff(o)
	return key == ""
}

// playKey returns r without its name, Trigger and Chain sorted and without
// repeats (nil when empty).
func (r Rules) playKey() Rules {
	set := func(v []int) []int {
		if len(v) == 0 {
			return nil
		}
		v = slices.Clone(v)
		slices.Sort(v)
		return slices.Compact(v)
	}
	r.Name = ""
	r.Trigger, r.Chain = set(r.Trigger), set(r.Chain)
	return r
}

// Mismatch describes, for an error, how r (the rules something was made
// for) differs from o (the rules asked for): "urim with max_plies 200, not
// 100" when the names agree, else both rule sets in full and their first
// difference. It returns "" when they play the same game.
func (r Rules) Mismatch(o Rules) string {
	key, mine, theirs := r.Diff(o)
	if key == "" {
		return ""
	}
	if r.Name == o.Name {
		return fmt.Sprintf("%s with %s %v, not %v", r.Name, key, mine, theirs)
	}
	return fmt.Sprintf("%s (%s), not %s (%s): %s %v, not %v", r.Name, r, o.Name, o, key, mine, theirs)
}
