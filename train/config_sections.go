package train

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/urim-rl/urim/env"
)

// Section is a top-level config section that an algorithm owns (alphazero's
// search, selfplay, replay and training; ppo's ppo), as its [Spec] lists
// it: a *[SectionHandle] made by [NewSection]. Its keys are part of the one
// schema like the core's: decoded strictly (errors name file, line and key
// path), overridden with --set, printed by `urim config print`, stored in
// the run's config.yaml and compared on resume. A config's schema is the
// core and its own algorithm's sections only: another algorithm's section
// in a file is an error naming its line and owner (a run's stored
// config.yaml written before may hold them: [LoadRunConfig] drops them), so
// a new default of one algorithm changes no other algorithm's runs.
type Section interface {
	// Key is the section's top-level key.
	Key() string
	// decl is the section without its type, as the schema registers it.
	decl() section
}

// SectionHandle is a config section of type T: an algorithm declares it
// once with [NewSection], lists it in its [Spec], and reads and replaces
// a config's value through it.
type SectionHandle[T any] struct {
	key, after string
	def        func() T
	check      func(c *Config, s T, game *env.Game) error
}

// NewSection declares the config section key of type T, printed after the
// top-level key after (a core key, or a section registered before:
// sections placed after the same key follow each other in registration
// order). def returns its value when a file leaves it out: a struct whose
// yaml tags name the keys. check, if not nil, validates the section s (and
// what it needs of the rest of c) in a config of its algorithm; game is the
// rules' game, nil when the rules are bad (reported already). Its errors are
// *ConfigError values whose Key is the full key path ("search.sims"); the
// decoder adds the file and line. The key may not be a core key or another
// section's ([Register] panics).
func NewSection[T any](key, after string, def func() T, check func(c *Config, s T, game *env.Game) error) *SectionHandle[T] {
	return &SectionHandle[T]{key: key, after: after, def: def, check: check}
}

// Key returns the section's top-level key.
func (h *SectionHandle[T]) Key() string { return h.key }

func (h *SectionHandle[T]) decl() section {
	s := section{key: h.key, after: h.after}
	if h.def != nil {
		s.def = func() any { return h.def() }
	}
	if h.check != nil {
		s.check = func(c *Config, game *env.Game) error { return h.check(c, h.Of(c), game) }
	}
	return s
}

// Of returns c's value of the section: its own, or the default. It panics
// when c holds another type under the key (a section of another handle).
func (h *SectionHandle[T]) Of(c *Config) T {
	v, ok := c.sections[h.key]
	if !ok {
		return h.def()
	}
	t, ok := v.(T)
	if !ok {
		panic(fmt.Sprintf("train: config section %q is a %T, not a %T", h.key, v, t))
	}
	return t
}

// Set replaces c's value of the section with v; copies of c made before
// keep their own.
func (h *SectionHandle[T]) Set(c *Config, v T) {
	if old, ok := c.sections[h.key]; ok {
		if _, ok := old.(T); !ok {
			panic(fmt.Sprintf("train: config section %q is a %T, not a %T", h.key, old, v))
		}
	}
	m := maps.Clone(c.sections)
	if m == nil {
		m = map[string]any{}
	}
	m[h.key] = v
	c.sections = m
}

// section is a registered section without its type: key, place, default
// and check, its owner and its default's type.
type section struct {
	key, after string
	def        func() any
	check      func(c *Config, game *env.Game) error
	owner      string
	typ        reflect.Type
}

var (
	// sections are the registered sections in registration order, order
	// the top-level keys in printed order (guarded by regMu).
	sections []section
	order    []string
	// schemas are the struct types of each algorithm's config, core and
	// its sections, built for the sections registered so far (emptied by
	// each registration).
	schemas = map[string]reflect.Type{}
)

// coreKeys returns the top-level keys of Config's own fields, in order.
func coreKeys() []string {
	var keys []string
	t := reflect.TypeOf(Config{})
	for i := 0; i < t.NumField(); i++ {
		if tag := yamlKey(t.Field(i)); tag != "" {
			keys = append(keys, tag)
		}
	}
	return keys
}

// yamlKey returns a field's yaml key, or "" for a field not in the schema.
func yamlKey(f reflect.StructField) string {
	tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if !f.IsExported() || tag == "-" {
		return ""
	}
	return tag
}

// addSections registers the sections of algorithm owner; regMu is held.
// It panics on a section that cannot take its place.
func addSections(owner string, secs []Section) {
	if order == nil {
		order = coreKeys()
	}
	for _, h := range secs {
		s := h.decl()
		if s.key == "" || slices.Contains(order, s.key) {
			panic(fmt.Sprintf("train: algorithm %q: section %q: the key is empty or taken", owner, s.key))
		}
		if s.def == nil {
			panic(fmt.Sprintf("train: algorithm %q: section %q has no default", owner, s.key))
		}
		s.typ = reflect.TypeOf(s.def())
		if s.typ == nil || s.typ.Kind() != reflect.Struct {
			panic(fmt.Sprintf("train: algorithm %q: section %q: its default is a %v, want a struct", owner, s.key, s.typ))
		}
		at := slices.Index(order, s.after)
		if at < 0 {
			panic(fmt.Sprintf("train: algorithm %q: section %q: after %q is neither a core key nor a section registered before", owner, s.key, s.after))
		}
		// After the key and the sections already placed behind it.
		at++
		for at < len(order) && isSection(order[at]) {
			at++
		}
		order = slices.Insert(order, at, s.key)
		s.owner = owner
		sections = append(sections, s)
	}
	clear(schemas)
}

func isSection(key string) bool {
	_, ok := sectionOf(key)
	return ok
}

// sectionOf returns the registered section key; regMu is held.
func sectionOf(key string) (section, bool) {
	for _, s := range sections {
		if s.key == key {
			return s, true
		}
	}
	return section{}, false
}

// lookupSection is sectionOf for callers that do not hold regMu.
func lookupSection(key string) (section, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	return sectionOf(key)
}

// schemaType returns the struct type of algorithm algo's config: Config's
// fields and a field per section of algo, in printed order. The strict
// decoder, --set, the printer and the finite-number check all work on a
// value of it ([Config.schemaValue]).
func schemaType(algo string) reflect.Type {
	regMu.Lock()
	defer regMu.Unlock()
	if t, ok := schemas[algo]; ok {
		return t
	}
	keys := order
	if keys == nil {
		keys = coreKeys()
	}
	core := map[string]reflect.StructField{}
	t := reflect.TypeOf(Config{})
	for i := 0; i < t.NumField(); i++ {
		if tag := yamlKey(t.Field(i)); tag != "" {
			core[tag] = t.Field(i)
		}
	}
	fields := make([]reflect.StructField, 0, len(keys))
	for _, key := range keys {
		if f, ok := core[key]; ok {
			fields = append(fields, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag})
			continue
		}
		if s, _ := sectionOf(key); s.owner == algo {
			fields = append(fields, reflect.StructField{Name: "Section" + strconv.Itoa(len(fields)), Type: s.typ,
				Tag: reflect.StructTag(`yaml:"` + key + `"`)})
		}
	}
	schemas[algo] = reflect.StructOf(fields)
	return schemas[algo]
}

// schemaValue returns a pointer to a new value of c's algorithm's schema
// holding c.
func (c *Config) schemaValue() reflect.Value {
	t := schemaType(c.Algorithm)
	p := reflect.New(t)
	v, cv := p.Elem(), reflect.ValueOf(c).Elem()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if cf, ok := cv.Type().FieldByName(f.Name); ok && yamlKey(cf) != "" {
			v.Field(i).Set(cv.FieldByIndex(cf.Index))
			continue
		}
		v.Field(i).Set(reflect.ValueOf(c.section(yamlKey(f))))
	}
	return p
}

// fromSchema returns the config a schema value (a pointer) holds; the
// sections its schema lacks (another algorithm's) keep those of base.
func fromSchema(p reflect.Value, base Config) Config {
	c := base
	v, cv := p.Elem(), reflect.ValueOf(&c).Elem()
	t := v.Type()
	c.sections = maps.Clone(base.sections)
	if c.sections == nil {
		c.sections = map[string]any{}
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if cf, ok := cv.Type().FieldByName(f.Name); ok && yamlKey(cf) != "" {
			cv.FieldByIndex(cf.Index).Set(v.Field(i))
			continue
		}
		c.sections[yamlKey(f)] = v.Field(i).Interface()
	}
	return c
}

// section returns c's value of section key: its own, or the default.
func (c *Config) section(key string) any {
	if v, ok := c.sections[key]; ok {
		return v
	}
	s, ok := lookupSection(key)
	if !ok {
		panic(fmt.Sprintf("train: no config section %q is registered", key))
	}
	return s.def()
}

// defaultSections returns every registered section's default.
func defaultSections() map[string]any {
	regMu.RLock()
	defer regMu.RUnlock()
	m := map[string]any{}
	for _, s := range sections {
		m[s.key] = s.def()
	}
	return m
}

// foreignSection returns the algorithm owning section key when it is not
// algo ("" when key is no section or algo's own).
func foreignSection(key, algo string) string {
	if s, ok := lookupSection(key); ok && s.owner != algo {
		return s.owner
	}
	return ""
}
