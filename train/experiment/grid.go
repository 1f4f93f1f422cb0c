package experiment

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Axis is one dimension of the grid: a config key path and its values,
// each a YAML value as --set takes it.
type Axis struct {
	Key    string   `json:"key"`
	Values []string `json:"values"`
}

// ParseAxis reads "key=v1,v2,...", the form of urim sweep's --grid.
func ParseAxis(s string) (Axis, error) {
	key, vals, ok := strings.Cut(s, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" || strings.TrimSpace(vals) == "" {
		return Axis{}, fmt.Errorf("experiment: grid %q: want key=value1,value2 (such as search.sims=16,32,64)", s)
	}
	a := Axis{Key: key}
	seen := map[string]bool{}
	for _, v := range strings.Split(vals, ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			return Axis{}, fmt.Errorf("experiment: grid %q: an empty value", s)
		}
		if seen[v] {
			return Axis{}, fmt.Errorf("experiment: grid %q: %s given twice", s, v)
		}
		seen[v] = true
		a.Values = append(a.Values, v)
	}
	return a, nil
}

// Cell is one combination of the grid's values.
type Cell struct {
	// Name is the cell's directory name: each key's last part and its
	// value, such as root-gumbel_sims-32.
	Name string `json:"name"`
	// Sets are the overrides (key=value) of the cell, in the grid's order.
	Sets []string `json:"sets"`
	// Values are the cell's values, one per axis.
	Values []string `json:"values"`
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9.]+`)

// Cells returns every combination of the axes' values, the first axis
// varying slowest. No axes give one cell, named base.
func Cells(axes []Axis) ([]Cell, error) {
	out := []Cell{{}}
	keys := map[string]bool{}
	for _, a := range axes {
		if keys[a.Key] {
			return nil, fmt.Errorf("experiment: grid key %s given twice", a.Key)
		}
		keys[a.Key] = true
		if len(a.Values) == 0 {
			return nil, errors.New("experiment: grid " + a.Key + " has no values")
		}
		var next []Cell
		for _, c := range out {
			for _, v := range a.Values {
				parts := strings.Split(a.Key, ".")
				name := strings.Trim(unsafeName.ReplaceAllString(v, "-"), "-")
				if name == "" {
					name = "none" // "" (an empty string), say
				}
				part := parts[len(parts)-1] + "-" + name
				n := Cell{Name: join(c.Name, part), Sets: append(append([]string{}, c.Sets...), a.Key+"="+v),
					Values: append(append([]string{}, c.Values...), v)}
				next = append(next, n)
			}
		}
		out = next
	}
	seen := map[string]bool{}
	for i := range out {
		if out[i].Name == "" {
			out[i].Name = "base"
		}
		if seen[out[i].Name] {
			return nil, fmt.Errorf("experiment: two cells would share the directory %s: give values that differ in letters or digits", out[i].Name)
		}
		seen[out[i].Name] = true
	}
	return out, nil
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "_" + b
}
