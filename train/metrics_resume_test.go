package train

import (
	"strings"
	"testing"
)

func TestCheckResumedMetrics(t *testing.T) {
	head := []string{"iteration", "elapsed_s", "loss"}
	rows := func(its ...string) *Table {
		tab := &Table{Header: head}
		for _, it := range its {
			tab.Rows = append(tab.Rows, []string{it, "1", "0.5"})
		}
		return tab
	}
	for _, tc := range []struct {
		name string
		tab  *Table
		done int
		warn string // substring; "" for none
	}{
		{"complete", rows("1", "2", "3"), 3, ""},
		{"rows past the state are trimmed later", rows("1", "2", "3", "4"), 3, ""},
		{"deleted file", &Table{}, 3, "iterations 1–3 of the 3 committed"},
		{"gaps", rows("1", "3", "6"), 7, "iterations 2, 4–5, 7 of the 7"},
		{"nothing committed", &Table{}, 0, ""},
	} {
		warn, err := checkResumedMetrics(tc.tab, head, tc.done)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if (tc.warn == "") != (warn == "") || !strings.Contains(warn, tc.warn) {
			t.Errorf("%s: warning %q, want one containing %q", tc.name, warn, tc.warn)
		}
	}
	other := &Table{Header: []string{"iteration", "elapsed_s"}, Rows: [][]string{{"1", "2"}}}
	if _, err := checkResumedMetrics(other, head, 1); err == nil || !strings.Contains(err.Error(), "move it aside") {
		t.Errorf("other columns: %v, want an error saying to move the file aside", err)
	}
}
