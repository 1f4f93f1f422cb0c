package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/urim-rl/urim/evaluate"
)

func TestEvalAgentsStoreAndReports(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "games.jsonl")
	out := filepath.Join(dir, "out")
	code, md, errs := urim(t, "", "eval", "--agents", "random,alphabeta:depth=1", "--games", "4", "--store", store, "--out", out, "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"# Tournament: round_robin on urim", "| random | alphabeta:depth=1 | 4 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	for _, f := range []string{"report.md", "results.json", "games.csv", "ratings.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	// Adding an agent reuses the 4 stored games.
	code, _, errs = urim(t, "", "eval", "--agents", "random,alphabeta:depth=1,greedy", "--games", "4", "--store", store, "--quiet")
	if code != 0 || !strings.Contains(errs, "reused 4 stored games, played 8") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestEvalConfigWithOverrides(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "t.yaml")
	os.WriteFile(cfg, []byte("agents:\n  - random\n  - alphabeta:depth=1\ngames: 100\nformat: gauntlet\nseed: 4\n"), 0o644)
	code, out, errs := urim(t, "", "eval", "--config", cfg, "--games", "2", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"games": 2,`) || !strings.Contains(out, `"format": "gauntlet"`) || !strings.Contains(out, `"seed": 4,`) {
		t.Errorf("the override or the config did not apply:\n%s", out)
	}
	os.WriteFile(cfg, []byte("agents:\n  - random\n  - alphabeta:depth=1\ngamess: 100\n"), 0o644)
	code, _, errs = urim(t, "", "eval", "--config", cfg)
	if code != 1 || !strings.Contains(errs, cfg+":4: gamess: unknown key") {
		t.Errorf("typo in the config: exit %d, %q", code, errs)
	}
	for _, args := range [][]string{{"eval"}, {"eval", "--config", cfg, "--agents", "random"}, {"eval", "extra"}} {
		if code, _, _ := urim(t, "", args...); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
	}
}

func TestEvalSPRT(t *testing.T) {
	code, out, errs := urim(t, "", "eval", "sprt", "--elo1", "50", "greedy", "random", "--quiet")
	if code != 0 || !strings.Contains(out, "H1 accepted: greedy is stronger than random") {
		t.Errorf("exit %d, out %q, err %q", code, out, errs)
	}
	code, out, _ = urim(t, "", "eval", "sprt", "--gate", "--elo1", "100", "--quiet", "random", "random")
	if code != 3 || !strings.Contains(out, "H0 accepted") {
		t.Errorf("--gate with random against itself: exit %d, %q", code, out)
	}
	if code, _, errs := urim(t, "", "eval", "sprt", "--elo1", "-5", "random", "greedy"); code != 2 || !strings.Contains(errs, "elo1") {
		t.Errorf("bad bounds: exit %d, %q", code, errs)
	}
}

// configKeys lists the YAML keys of t, inline structs followed.
func configKeys(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case name == "-":
		case opts == "inline":
			keys = append(keys, configKeys(f.Type)...)
		case name != "":
			keys = append(keys, name)
		}
	}
	return keys
}

// TestEvalFlagsAreTheConfigKeys: every tournament config key but agents
// has an eval flag of the same name (underscores as dashes) whose default is
// the key's default (issue 9: opening_plies was --openings, output was
// --out, prior_draws had no flag, and the defaults differed).
func TestEvalFlagsAreTheConfigKeys(t *testing.T) {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	commands["eval"].setup(fs)
	def := reflect.ValueOf(evaluate.DefaultConfig())
	byKey := map[string]reflect.Value{}
	var collect func(v reflect.Value)
	collect = func(v reflect.Value) {
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if opts == "inline" {
				collect(v.Field(i))
			} else if name != "" && name != "-" {
				byKey[name] = v.Field(i)
			}
		}
	}
	collect(def)
	for _, key := range configKeys(reflect.TypeFor[evaluate.Config]()) {
		if key == "agents" {
			continue // --agents takes the list as specs
		}
		f := fs.Lookup(strings.ReplaceAll(key, "_", "-"))
		if f == nil {
			t.Errorf("config key %s has no flag --%s", key, strings.ReplaceAll(key, "_", "-"))
			continue
		}
		if want := fmt.Sprint(byKey[key].Interface()); f.DefValue != want && !(want == "" && f.DefValue == "") {
			t.Errorf("--%s defaults to %q, the config key %s to %q", f.Name, f.DefValue, key, want)
		}
	}
}

// TestEvalConfigAndFlagsPlayTheSameTournament: a config listing only the
// agents and --agents with no other flag give the same result.
func TestEvalConfigAndFlagsPlayTheSameTournament(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "t.yaml")
	os.WriteFile(cfg, []byte("agents: [random, greedy]\ngames: 6\n"), 0o644)
	code, fromFile, errs := urim(t, "", "eval", "--config", cfg, "--json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, fromFlags, errs := urim(t, "", "eval", "--agents", "random,greedy", "--games", "6", "--json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if fromFile != fromFlags {
		t.Errorf("config and flags differ:\n%s\n%s", fromFile, fromFlags)
	}
	// The long and the short names set the same thing.
	_, a, _ := urim(t, "", "eval", "--agents", "random,greedy", "--games", "2", "--opening-plies", "0", "--format", "gauntlet", "--json", "--quiet")
	_, b, _ := urim(t, "", "eval", "--agents", "random,greedy", "--games", "2", "--openings", "0", "--gauntlet", "--json", "--quiet")
	if a != b || !strings.Contains(a, `"opening_plies": 0`) || !strings.Contains(a, `"format": "gauntlet"`) {
		t.Errorf("--opening-plies/--format and --openings/--gauntlet differ:\n%s\n%s", a, b)
	}
	// --prior-draws overrides the config's key.
	os.WriteFile(cfg, []byte("agents: [random, greedy]\ngames: 2\nprior_draws: 3\n"), 0o644)
	if _, out, _ := urim(t, "", "eval", "--config", cfg, "--prior-draws", "0.5", "--json", "--quiet"); !strings.Contains(out, `"prior_draws": 0.5`) {
		t.Errorf("--prior-draws did not override the config:\n%s", out)
	}
}

// TestEvalCustomRulesWithStore rates agents under a rules file and stores
// the games with their rules: a second run reuses them, and a changed file
// under the same name does not.
func TestEvalCustomRulesWithStore(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "five.yaml")
	store := filepath.Join(dir, "games.jsonl")
	os.WriteFile(rules, []byte("preset: urim\nseeds_per_pit: 5\n"), 0o644)
	args := []string{"eval", "--agents", "random,greedy", "--games", "4", "--rules", rules, "--store", store, "--quiet"}
	code, md, errs := urim(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(md, "on "+rules) {
		t.Errorf("the report does not name the rules file:\n%s", md)
	}
	data, err := os.ReadFile(store)
	if err != nil || !strings.Contains(string(data), `"custom_rules":{"name":"`+rules+`","pits_per_row":6,"seeds_per_pit":5`) {
		t.Fatalf("the store lacks the custom rules (%v):\n%.400s", err, data)
	}
	if code, _, errs := urim(t, "", args...); code != 0 || !strings.Contains(errs, "reused 4 stored games, played 0") {
		t.Errorf("second run: exit %d, %q", code, errs)
	}
	os.WriteFile(rules, []byte("preset: urim\nseeds_per_pit: 4\n"), 0o644)
	if code, _, errs := urim(t, "", args...); code != 0 || strings.Contains(errs, "reused") {
		t.Errorf("changed rules reused stored games: exit %d, %q", code, errs)
	}
	os.WriteFile(rules, []byte("preset: urim\nseeds_per_pit: 4.5\n"), 0o644)
	if code, _, errs := urim(t, "", args...); code == 0 || !strings.Contains(errs, rules+":2: seeds_per_pit: want an integer") {
		t.Errorf("bad rules file: exit %d, %q", code, errs)
	}
	// match and eval sprt take the file too.
	os.WriteFile(rules, []byte("preset: urim\nseeds_per_pit: 5\n"), 0o644)
	if code, out, errs := urim(t, "", "match", "--rules", rules, "--games", "2", "--quiet", "random", "random"); code != 0 || !strings.Contains(out, "on "+rules) {
		t.Errorf("match --rules FILE: exit %d, %q %q", code, out, errs)
	}
	if code, _, errs := urim(t, "", "eval", "sprt", "--rules", rules, "--max-games", "4", "--quiet", "greedy", "random"); code != 0 {
		t.Errorf("eval sprt --rules FILE: exit %d, %q", code, errs)
	}
}

// TestRulesExplainsAFile: urim rules takes a rules file as any --rules does.
func TestRulesExplainsAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "five.yaml")
	os.WriteFile(file, []byte("preset: urim\nseeds_per_pit: 5\n"), 0o644)
	code, out, errs := urim(t, "", "rules", file)
	if code != 0 || !strings.Contains(out, "Rules "+file) || !strings.Contains(out, "5 seeds in every pit") {
		t.Errorf("exit %d, %q, %q", code, out, errs)
	}
}
