package env

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// FormatRulesLine writes rules as the argument of the protocol's rules
// command: the preset name when r is exactly a preset, else key=value pairs
// with the YAML keys of Rules.
func FormatRulesLine(r Rules) string {
	if p, err := PresetRules(r.Name); err == nil && reflect.DeepEqual(p, r) {
		return r.Name
	}
	ints := func(v []int) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = strconv.Itoa(x)
		}
		return strings.Join(s, ",")
	}
	name := r.Name
	if name == "" || strings.ContainsAny(name, " =") {
		name = "custom"
	}
	return fmt.Sprintf("name=%s pits_per_row=%d seeds_per_pit=%d capacity=%d trigger=%s chain=%s grand_slam=%s end_on_majority=%t max_plies=%d",
		name, r.PitsPerRow, r.SeedsPerPit, r.Capacity, ints(r.Trigger), ints(r.Chain), r.GrandSlam, r.EndOnMajority, r.MaxPlies)
}

// ParseRulesLine reads the argument of the rules command: a preset name,
// optionally followed by key=value pairs that change it, or key=value pairs
// alone (starting from the urim preset).
func ParseRulesLine(line string) (Rules, error) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return Rules{}, errors.New("rules: empty")
	}
	base := "urim"
	if !strings.Contains(f[0], "=") {
		base, f = f[0], f[1:]
	}
	r, err := PresetRules(base)
	if err != nil {
		return r, err
	}
	seen := map[string]bool{}
	for _, kv := range f {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return r, fmt.Errorf("rules: %q is not key=value", kv)
		}
		if seen[k] {
			return r, fmt.Errorf("rules: %s given twice", k)
		}
		seen[k] = true
		var err error
		switch k {
		case "name":
			r.Name = v
		case "pits_per_row":
			r.PitsPerRow, err = strconv.Atoi(v)
		case "seeds_per_pit":
			r.SeedsPerPit, err = strconv.Atoi(v)
		case "capacity":
			r.Capacity, err = strconv.Atoi(v)
		case "trigger":
			r.Trigger, err = parseInts(v)
		case "chain":
			r.Chain, err = parseInts(v)
		case "grand_slam":
			r.GrandSlam = GrandSlam(v)
		case "end_on_majority":
			r.EndOnMajority, err = strconv.ParseBool(v)
		case "max_plies":
			r.MaxPlies, err = strconv.Atoi(v)
		default:
			return r, fmt.Errorf("rules: unknown key %q (known: name, pits_per_row, seeds_per_pit, capacity, trigger, chain, grand_slam, end_on_majority, max_plies)", k)
		}
		if err != nil {
			return r, fmt.Errorf("rules: %s=%q: %v", k, v, err)
		}
	}
	return r, r.Validate()
}

func parseInts(s string) ([]int, error) {
	if s == "" || s == "none" {
		return nil, nil
	}
	var out []int
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(p)
		if err != nil {
			return nil, errors.New("want counts separated by commas, such as 2,3")
		}
		out = append(out, n)
	}
	return out, nil
}
