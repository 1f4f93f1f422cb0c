package experiment

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseRecipeAndCells(t *testing.T) {
	big, err := ParseRecipe("big: network.width=256; network.depth=6;")
	if err != nil || !reflect.DeepEqual(big, Recipe{Name: "big", Sets: []string{"network.width=256", "network.depth=6"}}) {
		t.Fatalf("%+v, %v", big, err)
	}
	base, err := ParseRecipe("base:")
	if err != nil || base.Name != "base" || len(base.Sets) != 0 {
		t.Fatalf("%+v, %v", base, err)
	}
	for _, bad := range []string{"big", ":a=1", "b g:a=1", "big:width", "big:=3", "big:a=1;a=2"} {
		if _, err := ParseRecipe(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	sims, _ := ParseAxis("search.sims=16,32")
	cells, err := Cells([]Recipe{base, big}, []Axis{sims})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cells {
		names = append(names, c.Name)
	}
	if want := []string{"base_sims-16", "base_sims-32", "big_sims-16", "big_sims-32"}; !reflect.DeepEqual(names, want) {
		t.Errorf("cells %v, want %v", names, want)
	}
	if want := []string{"network.width=256", "network.depth=6", "search.sims=32"}; !reflect.DeepEqual(cells[3].Sets, want) {
		t.Errorf("sets %v, want %v", cells[3].Sets, want)
	}
	if want := []string{"big", "32"}; !reflect.DeepEqual(cells[3].Values, want) {
		t.Errorf("values %v, want %v", cells[3].Values, want)
	}
	if _, err := Cells([]Recipe{base, base}, nil); err == nil {
		t.Error("two recipes of one name accepted")
	}
}

// A sweep of two recipes trains each with its own sets and names them in
// the summary and the report.
func TestSweepOfRecipes(t *testing.T) {
	out := t.TempDir()
	c := tinySweep(out, 1)
	c.Grid = nil
	c.Recipes = []Recipe{{Name: "base", Sets: []string{}}, {Name: "gumbel", Sets: []string{"search.root=gumbel", "search.sims=8"}}}
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	stored, err := os.ReadFile(filepath.Join(out, "runs", "gumbel", "seed-1", "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(stored), "root: gumbel") {
		t.Errorf("the gumbel recipe's run did not take its sets:\n%s", stored)
	}
	summary, _ := os.ReadFile(filepath.Join(out, "summary.csv"))
	if !strings.HasPrefix(string(summary), "cell,recipe,seed,") || !strings.Contains(string(summary), "\ngumbel,gumbel,1,") {
		t.Errorf("summary.csv:\n%s", summary)
	}
	report, _ := os.ReadFile(filepath.Join(out, "report.md"))
	if !strings.Contains(string(report), "recipe `gumbel` (`search.root=gumbel`, `search.sims=8`)") {
		t.Errorf("report.md does not name the recipe's sets:\n%s", report)
	}
	// Resuming with other recipes is another sweep.
	c.Recipes[1].Sets = []string{"search.root=gumbel"}
	if _, err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "another sweep") {
		t.Errorf("a changed recipe resumed: %v", err)
	}
}
