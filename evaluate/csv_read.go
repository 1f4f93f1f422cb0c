package evaluate

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ReadCSV reads games in the form [WriteCSV] writes (the columns of
// [CSVHeader], found by name in the header row, so added columns are
// ignored). The file has no custom rules: a game under custom rules keeps
// only their name. Errors name the line and the column.
func ReadCSV(r io.Reader) ([]Record, error) {
	cr := csv.NewReader(r)
	head, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("evaluate: games csv: empty file")
	}
	if err != nil {
		return nil, fmt.Errorf("evaluate: games csv: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(h)] = i
	}
	for _, h := range CSVHeader {
		if _, ok := col[h]; !ok {
			return nil, fmt.Errorf("evaluate: games csv: no %q column in the header (want %s)", h, strings.Join(CSVHeader, ","))
		}
	}
	var out []Record
	for line := 2; ; line++ {
		row, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("evaluate: games csv: %w", err)
		}
		rec, err := csvRecord(row, col)
		if err != nil {
			return nil, fmt.Errorf("evaluate: games csv line %d: %w", line, err)
		}
		out = append(out, rec)
	}
}

// csvRecord turns one row into a Record; col maps column names to indices.
func csvRecord(row []string, col map[string]int) (Record, error) {
	var firstErr error
	get := func(name string) string {
		if i := col[name]; i < len(row) {
			return strings.TrimSpace(row[i])
		}
		return ""
	}
	num := func(name string) int {
		n, err := strconv.Atoi(get(name))
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("column %s: %q is not a whole number", name, get(name))
		}
		return n
	}
	moves := func(name string) []int {
		out := []int{}
		for _, f := range strings.Fields(get(name)) {
			a, err := strconv.Atoi(f)
			if err != nil && firstErr == nil {
				firstErr = fmt.Errorf("column %s: action %q is not a number", name, f)
			}
			out = append(out, a)
		}
		return out
	}
	r := Record{
		Rules:       get("rules"),
		MaxPlies:    num("max_plies"),
		Players:     [2]string{get("south"), get("north")},
		Specs:       [2]string{get("south_spec"), get("north_spec")},
		Index:       num("index"),
		Opening:     moves("opening"),
		Moves:       moves("moves"),
		Plies:       num("plies"),
		Stores:      [2]int{num("south_store"), num("north_store")},
		MatchPoints: [2]int{num("south_mp"), num("north_mp")},
		Reason:      get("reason"),
	}
	seed, err := strconv.ParseUint(get("seed"), 10, 64)
	if err != nil && firstErr == nil {
		firstErr = fmt.Errorf("column seed: %q is not a seed", get("seed"))
	}
	r.Seed = seed
	return r, firstErr
}
