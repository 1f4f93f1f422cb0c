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
// search, selfplay, replay and training; ppo's ppo), declared in its
// [Spec]. Its keys are part of the one schema like the core's: decoded
// strictly (errors name file, line and key path), overridden with --set,
// printed by `urim config print`, stored in the run's config.yaml and
// compared on resume. A config's schema is the core and its own
// algorithm's sections only: another algorithm's section in a file is an
// error naming its line and owner (a run's stored config.yaml written before
// may hold them: [LoadRunConfig] drops them), so a new default of one
// algorithm changes no other algorithm's runs.
type Section struct {
	// Key is the section's top-level key; it may not be a core key or
	// another section's.
	Key string
	// After is the top-level key the section is printed after: a core key
	// or a section registered before (sections placed after the same key
	// follow each other in registration order).
	After string
	// Default returns the section's value when a file leaves it out: a
	// struct whose yaml tags name the keys, and whose type is the
	// section's ([SectionOf]).
	Default func() any
	// Check, if not nil, validates the section (and what it needs of the
	// rest of c) in a config of its algorithm. game is
	// the rules' game, nil when the rules are bad (reported already). Its
	// errors are *ConfigError values whose Key is the full key path
	// ("search.sims"); the decoder adds the file and line.
	Check func(c *Config, game *env.Game) error
}

// section is a registered Section with its owner and type.
type section struct {
	Section
	owner string
	typ   reflect.Type
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
	for _, s := range secs {
		if s.Key == "" || slices.Contains(order, s.Key) {
			panic(fmt.Sprintf("train: algorithm %q: section %q: the key is empty or taken", owner, s.Key))
		}
		if s.Default == nil {
			panic(fmt.Sprintf("train: algorithm %q: section %q has no Default", owner, s.Key))
		}
		typ := reflect.TypeOf(s.Default())
		if typ == nil || typ.Kind() != reflect.Struct {
			panic(fmt.Sprintf("train: algorithm %q: section %q: Default returns %v, want a struct", owner, s.Key, typ))
		}
		at := slices.Index(order, s.After)
		if at < 0 {
			panic(fmt.Sprintf("train: algorithm %q: section %q: After %q is neither a core key nor a section registered before", owner, s.Key, s.After))
		}
		// After the key and the sections already placed behind it.
		at++
		for at < len(order) && isSection(order[at]) {
			at++
		}
		order = slices.Insert(order, at, s.Key)
		sections = append(sections, section{Section: s, owner: owner, typ: typ})
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
		if s.Key == key {
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
	return s.Default()
}

// SectionOf returns c's section key, of type T (the type its Default
// returns). An algorithm package wraps it in a typed accessor
// (alphazero.SearchOf). It panics when no section key is registered or T is
// not its type.
func SectionOf[T any](c *Config, key string) T {
	v := c.section(key)
	t, ok := v.(T)
	if !ok {
		panic(fmt.Sprintf("train: config section %q is a %T, not a %T", key, v, t))
	}
	return t
}

// SetSection replaces c's section key with v, which must be of its type;
// copies of c made before keep their own. It panics like [SectionOf].
func SetSection[T any](c *Config, key string, v T) {
	if old := c.section(key); reflect.TypeOf(old) != reflect.TypeOf(v) {
		panic(fmt.Sprintf("train: config section %q is a %T, not a %T", key, old, v))
	}
	m := make(map[string]any, len(c.sections)+1)
	for k, x := range c.sections {
		m[k] = x
	}
	m[key] = v
	c.sections = m
}

// defaultSections returns every registered section's default.
func defaultSections() map[string]any {
	regMu.RLock()
	defer regMu.RUnlock()
	m := map[string]any{}
	for _, s := range sections {
		m[s.Key] = s.Default()
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
