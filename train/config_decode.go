package train

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ConfigError reports a bad training config: the file and line (or the
// --set override) and the key path ("search.sims", "evaluation.opponents[1]")
// of the problem.
type ConfigError struct {
	File string
	Line int
	// Set is the override (key=value) the bad value came from, if any.
	Set string
	Key string
	Err error
}

// Error returns "train: config FILE:LINE: KEY: problem", or
// "train: --set KEY=VALUE: problem" for an override.
func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString("train: ")
	switch {
	case e.Set != "":
		fmt.Fprintf(&b, "--set %s: ", e.Set)
	case e.File != "":
		b.WriteString("config ")
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	default:
		b.WriteString("config: ")
	}
	if e.Key != "" && e.Set == "" {
		b.WriteString(e.Key)
		b.WriteString(": ")
	}
	fmt.Fprint(&b, e.Err)
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ConfigError) Unwrap() error { return e.Err }

// LoadConfig reads a training config file, applies the overrides (each
// "key.path=value", the value in YAML syntax) and validates the result; see
// [ParseConfig].
func LoadConfig(path string, sets []string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("train: config: %w", err)
	}
	return ParseConfig(data, path, sets)
}

// ParseConfig decodes a training config strictly: every key not in the
// schema, a value of the wrong type, a non-finite number, a second YAML
// document and a key given twice are errors naming the file, line and key
// path; then the overrides are applied and [Config.Validate] fills nothing
// in but checks every value. Keys the file omits keep their [Default].
func ParseConfig(data []byte, file string, sets []string) (Config, error) {
	cfg := Default()
	root, err := parseDocument(data, file)
	if err != nil {
		return cfg, err
	}
	overrides := map[string]string{} // key path → the --set text
	for _, set := range sets {
		path, err := applySet(root, set)
		if err != nil {
			return cfg, err
		}
		overrides[path] = set
	}
	if err := checkKeys(root, reflect.TypeOf(cfg), "", file, overrides); err != nil {
		return cfg, err
	}
	if len(root.Content) > 0 {
		if err := root.Decode(&cfg); err != nil {
			return cfg, decodeError(err, file, root, overrides)
		}
	}
	if err := cfg.Validate(); err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			if set, ok := overrideFor(overrides, ce.Key); ok {
				ce.Set = set
			} else {
				ce.File = file
				ce.Line = keyLine(root, ce.Key)
			}
		}
		return cfg, err
	}
	return cfg, nil
}

// parseDocument reads the single YAML document of data as a mapping node
// (empty when the file is empty).
func parseDocument(data []byte, file string) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	err := dec.Decode(&doc)
	if errors.Is(err, io.EOF) {
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}, nil
	}
	if err != nil {
		return nil, syntaxError(err, file)
	}
	var second yaml.Node
	if err := dec.Decode(&second); err == nil {
		return nil, &ConfigError{File: file, Line: second.Line,
			Err: errors.New("a second YAML document ('---'): a config is one document")}
	} else if !errors.Is(err, io.EOF) {
		return nil, syntaxError(err, file)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}, nil
		}
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, &ConfigError{File: file, Line: root.Line,
			Err: errors.New("want a mapping of keys such as rules, network, search, optimizer")}
	}
	return root, nil
}

var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

func syntaxError(err error, file string) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &ConfigError{File: file, Line: line, Err: errors.New(m[2])}
	}
	return &ConfigError{File: file, Err: errors.New(msg)}
}

// decodeError turns a yaml.v3 type error into a ConfigError naming the key
// whose value is on the reported line.
func decodeError(err error, file string, root *yaml.Node, overrides map[string]string) error {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	m := yamlLine.FindStringSubmatch(msg)
	if m == nil {
		return &ConfigError{File: file, Err: errors.New(msg)}
	}
	line, _ := strconv.Atoi(m[1])
	key := lineKey(root, line, "")
	if set, ok := overrideFor(overrides, key); ok && line == 0 {
		return &ConfigError{Set: set, Key: key, Err: errors.New(m[2])}
	}
	return &ConfigError{File: file, Line: line, Key: key, Err: errors.New(m[2])}
}

// overrideFor returns the --set text that set key or one of its parents.
func overrideFor(overrides map[string]string, key string) (string, bool) {
	for k := key; k != ""; {
		if s, ok := overrides[k]; ok {
			return s, true
		}
		i := strings.LastIndexAny(k, ".[")
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return "", false
}

// fieldsOf returns the YAML keys of struct type t and their field types.
func fieldsOf(t reflect.Type) ([]string, map[string]reflect.Type) {
	var names []string
	types := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if !f.IsExported() || tag == "" || tag == "-" {
			continue
		}
		names = append(names, tag)
		types[tag] = f.Type
	}
	return names, types
}

var unmarshalerType = reflect.TypeOf((*yaml.Unmarshaler)(nil)).Elem()

// checkKeys reports the first key of n that the schema of t does not have,
// with the keys it accepts (KataGo's typo check), and a mapping where a value
// was expected or the reverse.
func checkKeys(n *yaml.Node, t reflect.Type, prefix, file string, overrides map[string]string) error {
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil
	}
	fail := func(line int, key string, err error) error {
		if set, ok := overrideFor(overrides, key); ok {
			return &ConfigError{Set: set, Key: key, Err: err}
		}
		return &ConfigError{File: file, Line: line, Key: key, Err: err}
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			return nil
		}
		if n.Kind != yaml.MappingNode {
			return fail(n.Line, strings.TrimSuffix(prefix, "."), fmt.Errorf("want a mapping of keys (%s)", strings.Join(sortedKeys(t), ", ")))
		}
		_, types := fieldsOf(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			ft, ok := types[k.Value]
			if !ok {
				return fail(k.Line, prefix+k.Value, fmt.Errorf("unknown key (known: %s)", strings.Join(sortedKeys(t), ", ")))
			}
			if err := checkKeys(n.Content[i+1], ft, prefix+k.Value+".", file, overrides); err != nil {
				return err
			}
		}
	case reflect.Slice:
		key := strings.TrimSuffix(prefix, ".")
		if n.Kind == yaml.MappingNode {
			return fail(n.Line, key, errors.New("want a list, not a mapping"))
		}
		if n.Kind == yaml.SequenceNode {
			for i, c := range n.Content {
				if err := checkKeys(c, t.Elem(), fmt.Sprintf("%s[%d].", key, i), file, overrides); err != nil {
					return err
				}
			}
		}
	default:
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			what := "mapping"
			if n.Kind == yaml.SequenceNode {
				what = "list"
			}
			return fail(n.Line, strings.TrimSuffix(prefix, "."), fmt.Errorf("want a single value (%s), not a %s", t.Kind(), what))
		}
	}
	return nil
}

func sortedKeys(t reflect.Type) []string {
	names, _ := fieldsOf(t)
	sort.Strings(names)
	return names
}

// applySet applies one override "a.b.c=value" to the document: the value is
// read as YAML ("200", "[random, greedy]", "10m") and replaces the key, which
// is created with its parents if the file lacks it. It returns the key path.
// The new nodes carry line 0, which is how errors find the override again.
func applySet(root *yaml.Node, set string) (string, error) {
	path, value, ok := strings.Cut(set, "=")
	path = strings.TrimSpace(path)
	if !ok || path == "" {
		return "", &ConfigError{Set: set, Err: errors.New("want key=value, such as search.sims=200")}
	}
	var v yaml.Node
	if err := yaml.Unmarshal([]byte(value), &v); err != nil {
		return "", &ConfigError{Set: set, Err: fmt.Errorf("value: %v", strings.TrimPrefix(err.Error(), "yaml: "))}
	}
	val := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: ""}
	if v.Kind == yaml.DocumentNode && len(v.Content) > 0 {
		val = v.Content[0]
	}
	zeroLines(val)
	t := reflect.TypeOf(Config{})
	n := root
	parts := strings.Split(path, ".")
	for i, part := range parts {
		soFar := strings.Join(parts[:i+1], ".")
		if t.Kind() != reflect.Struct || reflect.PointerTo(t).Implements(unmarshalerType) {
			return "", &ConfigError{Set: set, Err: fmt.Errorf("%s has no keys below it", strings.Join(parts[:i], "."))}
		}
		_, types := fieldsOf(t)
		ft, ok := types[part]
		if !ok {
			return "", &ConfigError{Set: set, Err: fmt.Errorf("unknown key %s (known: %s)", soFar, strings.Join(sortedKeys(t), ", "))}
		}
		if n.Kind != yaml.MappingNode {
			*n = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		}
		var child *yaml.Node
		for j := 0; j+1 < len(n.Content); j += 2 {
			if n.Content[j].Value == part {
				child = n.Content[j+1]
			}
		}
		if child == nil {
			child = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: part}, child)
		}
		if i == len(parts)-1 {
			// Check the value's type now, so the error names the override.
			probe := reflect.New(ft)
			if err := val.Decode(probe.Interface()); err != nil {
				msg := err.Error()
				var te *yaml.TypeError
				if errors.As(err, &te) && len(te.Errors) > 0 {
					msg = te.Errors[0]
				}
				if m := yamlLine.FindStringSubmatch(msg); m != nil {
					msg = m[2]
				}
				return "", &ConfigError{Set: set, Err: errors.New(msg)}
			}
			*child = *val
		}
		n, t = child, ft
	}
	return path, nil
}

func zeroLines(n *yaml.Node) {
	n.Line, n.Column = 0, 0
	for _, c := range n.Content {
		zeroLines(c)
	}
}

// keyLine finds the line of a key path such as "search.sims" or
// "evaluation.opponents[1]" in the document, or 0 when the file lacks it.
func keyLine(root *yaml.Node, key string) int {
	n := root
	line := 0
	for _, part := range strings.Split(key, ".") {
		name, index, hasIndex := strings.Cut(part, "[")
		if n == nil || n.Kind != yaml.MappingNode {
			return line
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == name {
				next = n.Content[i+1]
				line = n.Content[i].Line
			}
		}
		if next == nil {
			return line
		}
		if hasIndex {
			k, err := strconv.Atoi(strings.TrimSuffix(index, "]"))
			if err == nil && next.Kind == yaml.SequenceNode && k < len(next.Content) {
				next = next.Content[k]
				line = next.Line
			}
		}
		n = next
	}
	return line
}

// lineKey returns the key path whose value is on line, or "".
func lineKey(n *yaml.Node, line int, prefix string) string {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			if prefix != "" {
				key = prefix + "." + key
			}
			v := n.Content[i+1]
			if k := lineKey(v, line, key); k != "" {
				return k
			}
			if v.Line == line && v.Kind == yaml.ScalarNode {
				return key
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			key := fmt.Sprintf("%s[%d]", prefix, i)
			if c.Line == line && c.Kind == yaml.ScalarNode {
				return key
			}
			if k := lineKey(c, line, key); k != "" {
				return k
			}
		}
	}
	return ""
}

// Marshal writes c as YAML with every key, in schema order: the effective
// config `urim config print` shows and a run stores.
func (c Config) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return nil, fmt.Errorf("train: config: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("train: config: %w", err)
	}
	return b.Bytes(), nil
}
