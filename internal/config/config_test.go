package config

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// inner is a nested section; base is inlined into testConfig.
type inner struct {
	LR     float64 `yaml:"lr"`
	Layers []int   `yaml:"layers"`
}

type base struct {
	Preset string `yaml:"preset"`
}

// scalarOrMap reads "x" or {name: x}, like a tournament player.
type scalarOrMap struct {
	Name string `yaml:"name"`
}

func (s *scalarOrMap) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		s.Name = n.Value
		return nil
	}
	type plain scalarOrMap
	return n.Decode((*plain)(s))
}

type testConfig struct {
	base    `yaml:",inline"`
	Games   int            `yaml:"games"`
	Seed    uint64         `yaml:"seed"`
	Paired  bool           `yaml:"paired"`
	Prior   float64        `yaml:"prior_draws"`
	Time    time.Duration  `yaml:"time"`
	Opt     inner          `yaml:"optimizer"`
	Players []scalarOrMap  `yaml:"players"`
	Extra   map[string]any `yaml:"extra"`
	Skipped int            `yaml:"-"`
	checked bool
}

func (c *testConfig) Validate() error {
	c.checked = true
	if c.Games < 0 {
		return Errorf("games", "%d is negative", c.Games)
	}
	if len(c.Players) == 1 {
		return Errorf("players[0]", "is alone")
	}
	return nil
}

func TestDecodeReadsEveryKind(t *testing.T) {
	text := `preset: urim
games: 10
seed: 18446744073709551615
paired: true
prior_draws: 0.5
time: 2s
optimizer: {lr: 3e-4, layers: [64, 64]}
players: [a, {name: b}]
extra: {x: 1}
`
	c := testConfig{Games: 99, Prior: 7}
	if err := DecodeBytes([]byte(text), "t.yaml", &c); err != nil {
		t.Fatal(err)
	}
	if c.Preset != "urim" || c.Games != 10 || c.Seed != 1<<64-1 || !c.Paired || c.Prior != 0.5 || c.Time != 2*time.Second ||
		c.Opt.LR != 3e-4 || len(c.Opt.Layers) != 2 || len(c.Players) != 2 || c.Players[1].Name != "b" || !c.checked {
		t.Errorf("decoded %+v", c)
	}
	c = testConfig{Games: 99}
	if err := DecodeBytes([]byte("seed: 1\n"), "t.yaml", &c); err != nil || c.Games != 99 {
		t.Errorf("absent keys must keep their values: games %d, err %v", c.Games, err)
	}
}

func TestDecodeErrorsNameFileLineKey(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"games: 1\ngamez: 4\n", `t.yaml:2: gamez: unknown key (known: preset, games, seed, paired, prior_draws, time, optimizer, players, extra)`},
		{"optimizer:\n  lr: 1\n  lrr: 2\n", `t.yaml:3: optimizer.lrr: unknown key (known: lr, layers)`},
		{"players:\n  - a\n  - {nam: b}\n", `t.yaml:3: players[1].nam: unknown key (known: name)`},
		{"games: 4\ngames: 5\n", `t.yaml:2: games: given twice (first at line 1)`},
		{"games: 7.9\n", `t.yaml:1: games: want an integer, got "7.9"`},
		{"seed: 3.99\n", `t.yaml:1: seed: want an integer, got "3.99"`},
		{"games: many\n", `t.yaml:1: games: want an integer, got "many"`},
		{"games: [1]\n", `t.yaml:1: games: want an integer, got a list`},
		{"optimizer:\n  layers: [1, 2.5]\n", `t.yaml:2: optimizer.layers[1]: want an integer, got "2.5"`},
		{"prior_draws: .nan\n", `t.yaml:1: prior_draws: .nan is not a finite number`},
		{"optimizer: {lr: -.inf}\n", `t.yaml:1: optimizer.lr: -.inf is not a finite number`},
		{"extra: {a: [1, .Inf]}\n", `t.yaml:1: extra.a[1]: .Inf is not a finite number`},
		{"prior_draws: lots\n", `t.yaml:1: prior_draws: want a number, got "lots"`},
		{"paired: 2\n", `t.yaml:1: paired: want true or false, got "2"`},
		{"optimizer: 3\n", `t.yaml:1: optimizer: want a mapping of keys (lr, layers), got "3"`},
		{"players: a\n", `t.yaml:1: players: want a list, got "a"`},
		{"time: forever\n", "t.yaml:1: time: cannot unmarshal !!str `forever` into time.Duration"},
		{"games: 1\n---\ngames: 2\n", `t.yaml:2: a second YAML document`},
		{"", `t.yaml: the document is empty`},
		{"# only a comment\n", `t.yaml: the document is empty`},
		{"- a\n- b\n", `t.yaml:1: want a mapping of keys`},
		{"games: [1\n", `t.yaml:1: did not find expected`},
		{"games: -1\n", `t.yaml:1: games: -1 is negative`},
		{"seed: -1\n", `t.yaml:1: seed: want an integer from 0 to 18446744073709551615, got "-1"`},
		{"seed: 18446744073709551616\n", `t.yaml:1: seed: want an integer from 0 to 18446744073709551615, got "18446744073709551616"`},
		{"games: 9223372036854775808\n", `t.yaml:1: games: want an integer from -9223372036854775808 to 9223372036854775807, got "9223372036854775808"`},
		{"games: 1\nplayers:\n  - a\n", `t.yaml:3: players[0]: is alone`},
	} {
		var c testConfig
		err := DecodeBytes([]byte(tc.text), "t.yaml", &c)
		var ce *Error
		if err == nil || !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q:\n error %v\n want  %s", tc.text, err, tc.want)
		}
	}
}

func TestDecodeFile(t *testing.T) {
	var c testConfig
	err := DecodeFile(filepath.Join(t.TempDir(), "missing.yaml"), &c)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing file: %v", err)
	}
}

func TestSet(t *testing.T) {
	var c testConfig
	for _, a := range []string{"games=12", "optimizer.lr=1e-3", "optimizer.layers=[8, 8, 8]", "preset=oware", "paired=true", "time=150ms"} {
		if err := Set(&c, a); err != nil {
			t.Fatalf("Set(%q): %v", a, err)
		}
	}
	if c.Games != 12 || c.Opt.LR != 1e-3 || len(c.Opt.Layers) != 3 || c.Preset != "oware" || !c.Paired || c.Time != 150*time.Millisecond {
		t.Errorf("after Set: %+v", c)
	}
	if c.checked {
		t.Error("Set called Validate")
	}
	for _, tc := range []struct{ arg, want string }{
		{"games", `games: "games" is not key=value`},
		{"games=", `games: no value after '='`},
		{"gamez=1", `gamez: unknown key (known: preset, games,`},
		{"optimizer.mom=1", `optimizer.mom: unknown key (known: lr, layers)`},
		{"games.x=1", `games has no keys below it`},
		{"games=2.5", `games: want an integer, got "2.5"`},
		{"optimizer.lr=nan", `optimizer.lr: want a number, got "nan"`},
		{"optimizer.lr=.nan", `optimizer.lr: .nan is not a finite number`},
		{"optimizer.lr=[1", `optimizer.lr: did not find expected`},
	} {
		err := Set(&c, tc.arg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Set(%q): error %v, want %s", tc.arg, err, tc.want)
		}
	}
}

// FuzzDecode feeds arbitrary text to the decoder: it must not panic, and
// anything it accepts decodes the same way twice.
func FuzzDecode(f *testing.F) {
	f.Add("games: 1\nplayers: [a, {name: b}]\n")
	f.Add("prior_draws: .nan\n")
	f.Add("a: &x 1\nb: *x\n")
	f.Fuzz(func(t *testing.T, text string) {
		var a, b testConfig
		errA := DecodeBytes([]byte(text), "f.yaml", &a)
		errB := DecodeBytes([]byte(text), "f.yaml", &b)
		if (errA == nil) != (errB == nil) {
			t.Fatalf("decoding twice: %v, then %v", errA, errB)
		}
	})
}

// TestErrorMessages: the forms of the one config error's message.
func TestErrorMessages(t *testing.T) {
	bad := errors.New("bad")
	for _, c := range []struct {
		e    Error
		want string
	}{
		{Error{File: "f.yaml", Line: 3, Key: "search.sims", Err: bad}, "f.yaml:3: search.sims: bad"},
		{Error{File: "f.yaml", Err: bad}, "f.yaml: bad"},
		{Error{Line: 2, Key: "k", Err: bad}, "line 2: k: bad"},
		{Error{Key: "k", Err: bad}, "k: bad"},
		{Error{Set: "search.sims=0", Key: "search.sims", Err: bad}, "--set search.sims=0: bad"},
		{Error{Set: "search={sims: 0}", Key: "search.sims", Err: bad}, "--set search={sims: 0}: search.sims: bad"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.e, got, c.want)
		}
	}
}
