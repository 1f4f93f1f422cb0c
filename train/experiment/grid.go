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

// Recipe is a named set of overrides compared as one cell (urim sweep's
// --recipe): a recipe changes several keys at once, such as a larger
// network with the arithmetic that makes it affordable, where a grid axis
// changes one.
type Recipe struct {
	Name string   `json:"name"`
	Sets []string `json:"sets"`
}

// ParseRecipe reads "name:key=value;key=value", the form of --recipe; a
// recipe with no sets ("base:") is the base config itself.
func ParseRecipe(s string) (Recipe, error) {
	name, sets, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Recipe{}, fmt.Errorf("experiment: recipe %q: want name:key=value;key=value (such as big:network.width=256;network.depth=6)", s)
	}
	if unsafeName.MatchString(name) {
		return Recipe{}, fmt.Errorf("experiment: recipe %q: a name of letters, digits and dots only (it names the cell's directory)", s)
	}
	r := Recipe{Name: name, Sets: []string{}}
	seen := map[string]bool{}
	for _, kv := range strings.Split(sets, ";") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		key, _, ok := strings.Cut(kv, "=")
		if key = strings.TrimSpace(key); !ok || key == "" {
			return Recipe{}, fmt.Errorf("experiment: recipe %q: %q is not key=value", s, kv)
		}
		if seen[key] {
			return Recipe{}, fmt.Errorf("experiment: recipe %q: %s given twice", s, key)
		}
		seen[key] = true
		r.Sets = append(r.Sets, kv)
	}
	return r, nil
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

// Cells returns every combination of the recipes and the axes' values, the
// recipes varying slowest, then the first axis. A recipe's cells are named
// after it and take its name as their first value. No recipes and no axes
// give one cell, named base.
func Cells(recipes []Recipe, axes []Axis) ([]Cell, error) {
	out := []Cell{{}}
	if len(recipes) > 0 {
		out = out[:0]
		for _, r := range recipes {
			out = append(out, Cell{Name: r.Name, Sets: append([]string{}, r.Sets...), Values: []string{r.Name}})
		}
	}
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
			return nil, fmt.Errorf("experiment: two cells would share the directory %s: give recipe names and values that differ in letters or digits", out[i].Name)
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
