package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBenchNN(t *testing.T) {
	code, out, errs := runCLI(t, "", "bench", "nn", "--width", "16", "--depth", "1", "--train", "8", "--predict", "1,70",
		"--threads", "1,2", "--round", "1ms", "--rounds", "1", "--quiet", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 6 {
		t.Fatalf("%v: %d rows in %q", err, len(rows), out)
	}
	for _, r := range rows {
		if v, ok := r["positions_per_sec"].(float64); !ok || v <= 0 || r["backend"] == "" {
			t.Errorf("row %v", r)
		}
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--backends", "cuda"}, "not available"},
		{[]string{"--train", "0"}, "not a positive integer"},
		{[]string{"--arch", "cnn"}, "unknown architecture"},
		{[]string{"--rounds", "0"}, "must be positive"},
	} {
		code, _, errs := runCLI(t, "", append([]string{"bench", "nn", "--quiet"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, %q", c.args, code, errs)
		}
	}
}
