package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/urim-rl/urim/internal/inputfile"
)

// Error is a bad value in a config, the one config error type of urim
// (tournament, self-play and training configs, rules files). Its message is
// "FILE:LINE: KEY: problem" with the parts that are known, or "--set
// KEY=VALUE: problem" for a value from a command-line override.
type Error struct {
	// File names the input ("" when the value did not come from a file);
	// Line is its 1-based line (0: unknown).
	File string
	Line int
	// Key is the path of the key: "games", "agents[2]", "agents[1].spec",
	// "optimizer.lr"; "" for the document as a whole.
	Key string
	// Set is the override ("key=value", a --set flag's argument) the bad
	// value came from, if any; the message then names it instead of the
	// file, and names Key only when Set does not start with it.
	Set string
	Err error
}

// Error returns "FILE:LINE: KEY: problem", or "--set KEY=VALUE: problem".
func (e *Error) Error() string {
	var b strings.Builder
	if e.Set != "" {
		fmt.Fprintf(&b, "--set %s: ", e.Set)
		if e.Key != "" && !strings.HasPrefix(e.Set, e.Key+"=") {
			b.WriteString(e.Key + ": ")
		}
		b.WriteString(e.Err.Error())
		return b.String()
	}
	switch {
	case e.File != "" && e.Line > 0:
		fmt.Fprintf(&b, "%s:%d: ", e.File, e.Line)
	case e.File != "":
		fmt.Fprintf(&b, "%s: ", e.File)
	case e.Line > 0:
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error about key with a formatted message, for Validate
// methods: [Decode] fills in the file and the line.
func Errorf(key, format string, args ...any) *Error {
	return &Error{Key: key, Err: fmt.Errorf(format, args...)}
}

// Validator is a config that checks itself (and may fill in defaults) after
// decoding. Validate must be a pure check: it must not start processes or
// open files.
type Validator interface {
	Validate() error
}

// MaxFileBytes bounds a config file (the largest in configs/ is a few
// kilobytes): a larger input is refused before it is parsed.
const MaxFileBytes = 1 << 20

// ReadFile reads the config file at path for a caller that decodes it
// itself: a regular file of at most MaxFileBytes (package inputfile). Its
// error is an *Error naming path.
func ReadFile(path string) ([]byte, error) {
	data, err := inputfile.ReadFile(path, MaxFileBytes, "a config")
	if err != nil {
		return nil, &Error{File: path, Err: err}
	}
	return data, nil
}

// DecodeFile reads the YAML file at path into dst; see [Decode]. A file that
// cannot be read is an *Error wrapping the os error (so errors.Is(err,
// fs.ErrNotExist) works).
func DecodeFile(path string, dst any) error {
	data, err := ReadFile(path)
	if err != nil {
		return err
	}
	return DecodeBytes(data, path, dst)
}

// Decode reads one YAML document from r into dst, a non-nil pointer, with
// the strict checks of the package doc, then calls dst's Validate method if
// it has one. name names the input in errors (a file name). Fields absent
// from the document keep the values dst had, so a caller can preset
// defaults. Every error about the document is an [*Error].
func Decode(r io.Reader, name string, dst any) error {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return &Error{File: name, Err: err}
	}
	if len(data) > MaxFileBytes {
		return &Error{File: name, Err: fmt.Errorf("more than %d bytes, the most a config may hold", MaxFileBytes)}
	}
	return DecodeBytes(data, name, dst)
}

// DecodeBytes is [Decode] on a YAML text held in memory.
func DecodeBytes(data []byte, name string, dst any) error {
	rv := reflect.ValueOf(dst)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		panic(fmt.Sprintf("config: Decode into %T, want a non-nil pointer", dst))
	}
	doc, err := parse(data, name)
	if err != nil {
		return err
	}
	w := walker{file: name}
	if err := w.check(doc, rv.Type(), ""); err != nil {
		return err
	}
	if err := doc.Decode(dst); err != nil {
		var ce *Error
		if errors.As(err, &ce) { // from a type's own UnmarshalYAML
			return locate(err, name, doc)
		}
		return yamlError(err, name, doc)
	}
	if v, ok := dst.(Validator); ok {
		if err := v.Validate(); err != nil {
			return locate(err, name, doc)
		}
	}
	return nil
}

// parse reads exactly one non-empty YAML document and returns its top node.
func parse(data []byte, file string) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &Error{File: file, Err: errors.New("the document is empty")}
		}
		return nil, yamlError(err, file, nil)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		return nil, &Error{File: file, Line: extra.Line,
			Err: errors.New("a second YAML document: a config holds one (remove the '---' and what follows, or merge them)")}
	case !errors.Is(err, io.EOF):
		return nil, yamlError(err, file, nil)
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			return nil, &Error{File: file, Err: errors.New("the document is empty")}
		}
		doc = doc.Content[0]
	}
	return doc, nil
}

// walker checks a node tree against the Go type it will be decoded into.
type walker struct{ file string }

func (w walker) fail(line int, key, format string, args ...any) error {
	return &Error{File: w.file, Line: line, Key: key, Err: fmt.Errorf(format, args...)}
}

var (
	unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()
	durationType    = reflect.TypeFor[interface{ Seconds() float64 }]()
)

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func (w walker) check(n *yaml.Node, t reflect.Type, path string) error {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			if n.Kind == yaml.ScalarNode && reflect.PointerTo(t).Implements(unmarshalerType) {
				return nil // the type reads scalars itself (a player written as its spec)
			}
			return w.fail(n.Line, path, "want a mapping of keys (%s), got %s", strings.Join(fieldNames(t), ", "), describe(n))
		}
		fields := structFields(t)
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			key := join(path, k.Value)
			if first, dup := seen[k.Value]; dup {
				return w.fail(k.Line, key, "given twice (first at line %d)", first)
			}
			seen[k.Value] = k.Line
			ft, ok := fields[k.Value]
			if !ok {
				return w.fail(k.Line, key, "unknown key (known: %s)", strings.Join(fieldNames(t), ", "))
			}
			if err := w.check(v, ft, key); err != nil {
				return err
			}
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return w.fail(n.Line, path, "want a mapping, got %s", describe(n))
		}
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			key := join(path, k.Value)
			if first, dup := seen[k.Value]; dup {
				return w.fail(k.Line, key, "given twice (first at line %d)", first)
			}
			seen[k.Value] = k.Line
			if err := w.check(v, t.Elem(), key); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		if n.Kind != yaml.SequenceNode {
			if t.Elem().Kind() == reflect.Uint8 && n.Kind == yaml.ScalarNode {
				return nil // []byte from a string
			}
			return w.fail(n.Line, path, "want a list, got %s", describe(n))
		}
		for i, c := range n.Content {
			if err := w.check(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if t.Implements(durationType) {
			return w.scalar(n, path, "a duration such as 500ms or 2s")
		}
		if err := w.scalar(n, path, "an integer"); err != nil {
			return err
		}
		whole := strings.Trim(strings.TrimLeft(n.Value, "+-"), "0123456789") == "" && strings.TrimLeft(n.Value, "+-") != ""
		if n.ShortTag() != "!!int" && !whole {
			return w.fail(n.Line, path, "want an integer, got %s", describe(n))
		}
		if !reflect.PointerTo(t).Implements(unmarshalerType) && !fitsInt(n.Value, t) {
			lo, hi := intBounds(t)
			return w.fail(n.Line, path, "want an integer from %s to %s, got %s", lo, hi, describe(n))
		}
	case reflect.Float32, reflect.Float64:
		if err := w.scalar(n, path, "a number"); err != nil {
			return err
		}
		if tag := n.ShortTag(); tag != "!!int" && tag != "!!float" {
			return w.fail(n.Line, path, "want a number, got %s", describe(n))
		}
		return w.finite(n, path)
	case reflect.Bool:
		if err := w.scalar(n, path, "true or false"); err != nil {
			return err
		}
		if n.ShortTag() != "!!bool" {
			return w.fail(n.Line, path, "want true or false, got %s", describe(n))
		}
	case reflect.String:
		if !reflect.PointerTo(t).Implements(unmarshalerType) {
			return w.scalar(n, path, "a string")
		}
	case reflect.Interface:
		return w.anyFinite(n, path)
	}
	return nil
}

// scalar checks that n is a scalar.
func (w walker) scalar(n *yaml.Node, path, want string) error {
	if n.Kind != yaml.ScalarNode {
		return w.fail(n.Line, path, "want %s, got %s", want, describe(n))
	}
	return nil
}

// finite rejects .nan and ±.inf.
func (w walker) finite(n *yaml.Node, path string) error {
	if n.ShortTag() != "!!float" {
		return nil
	}
	var f float64
	if err := n.Decode(&f); err != nil {
		return w.fail(n.Line, path, "%v", err)
	}
	if f != f || f > maxFloat || f < -maxFloat {
		return w.fail(n.Line, path, "%s is not a finite number", n.Value)
	}
	return nil
}

const maxFloat = 1.7976931348623157e308

// anyFinite rejects non-finite numbers anywhere under n (for fields of
// type any).
func (w walker) anyFinite(n *yaml.Node, path string) error {
	switch n.Kind {
	case yaml.ScalarNode:
		return w.finite(n, path)
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := w.anyFinite(n.Content[i+1], join(path, n.Content[i].Value)); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if err := w.anyFinite(c, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// describe names what a node holds, for "want X, got Y".
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	v := n.Value
	if len(v) > 40 {
		v = v[:40] + "…"
	}
	return strconv.Quote(v)
}

// structFields maps each YAML key of struct t to its field type, following
// ",inline" fields.
func structFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, inline, skip := yamlName(f)
		if skip {
			continue
		}
		if inline {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range structFields(ft) {
					out[k] = v
				}
			}
			continue
		}
		out[name] = f.Type
	}
	return out
}

// fieldNames lists the YAML keys of struct t in declaration order.
func fieldNames(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, inline, skip := yamlName(f)
		switch {
		case skip:
		case inline:
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				out = append(out, fieldNames(ft)...)
			}
		default:
			out = append(out, name)
		}
	}
	return out
}

// yamlName returns the key of a struct field as yaml.v3 sees it.
func yamlName(f reflect.StructField) (name string, inline, skip bool) {
	if !f.IsExported() && !f.Anonymous {
		return "", false, true
	}
	tag := f.Tag.Get("yaml")
	if tag == "-" {
		return "", false, true
	}
	name, opts, _ := strings.Cut(tag, ",")
	for _, o := range strings.Split(opts, ",") {
		if o == "inline" {
			return "", true, false
		}
	}
	if name == "" {
		name = strings.ToLower(f.Name)
	}
	return name, false, false
}

var yamlLine = regexp.MustCompile(`^line (\d+): (.*)$`)

// yamlError rewrites a yaml.v3 error as an *Error with the line and, when
// doc is known, the key on that line.
func yamlError(err error, file string, doc *yaml.Node) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	m := yamlLine.FindStringSubmatch(msg)
	if m == nil {
		return &Error{File: file, Err: errors.New(msg)}
	}
	line, _ := strconv.Atoi(m[1])
	return &Error{File: file, Line: line, Key: lineKey(doc, line, ""), Err: errors.New(m[2])}
}

// lineKey returns the path of the key whose scalar value is on line
// ("games", "agents[1].spec"), or "".
func lineKey(n *yaml.Node, line int, prefix string) string {
	if n == nil {
		return ""
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := join(prefix, n.Content[i].Value)
			if v := n.Content[i+1]; v.Line == line && v.Kind == yaml.ScalarNode {
				return key
			}
			if k := lineKey(n.Content[i+1], line, key); k != "" {
				return k
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

// locate gives an *Error found in err that has a Key but no Line the file
// and the line of that key in doc; other errors are returned unchanged.
func locate(err error, file string, doc *yaml.Node) error {
	var ce *Error
	if errors.As(err, &ce) {
		ce.File = file
		if ce.Line == 0 {
			ce.Line, _ = KeyLine(doc, ce.Key)
		}
		if ce.Key == "" && ce.Line > 0 { // a type's UnmarshalYAML knows its line, not its key
			ce.Key = lineKey(doc, ce.Line, "")
		}
	}
	return err
}

// KeyLine finds the line of a key path such as "games", "agents[2]" or
// "agents[1].spec" in doc (a document's top mapping or the document node);
// found is false when doc lacks it, and line is then that of its deepest
// part present (0: none). The one finder of key lines, for the decoder's
// errors and for callers that place their own (train's Validate).
func KeyLine(doc *yaml.Node, key string) (line int, found bool) {
	n := doc
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	for _, part := range strings.Split(key, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name != "" {
			if n == nil || n.Kind != yaml.MappingNode {
				return line, false
			}
			var next *yaml.Node
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == name {
					line, next = n.Content[i].Line, n.Content[i+1]
				}
			}
			if next == nil {
				return line, false
			}
			n = next
		}
		for rest != "" {
			idx, after, _ := strings.Cut(rest, "]")
			rest = strings.TrimPrefix(after, "[")
			k, err := strconv.Atoi(idx)
			if err != nil || n.Kind != yaml.SequenceNode || k < 0 || k >= len(n.Content) {
				return line, false
			}
			n = n.Content[k]
			line = n.Line
		}
	}
	return line, true
}

// fitsInt reports whether the YAML integer v is a value of the integer type
// t (yaml.v3 would wrap a literal too large for a uint64 around).
func fitsInt(v string, t reflect.Type) bool {
	v = strings.TrimPrefix(v, "+")
	var err error
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		_, err = strconv.ParseUint(v, 0, t.Bits())
	default:
		_, err = strconv.ParseInt(v, 0, t.Bits())
	}
	return err == nil
}

// intBounds returns the smallest and largest values of the integer type t.
func intBounds(t reflect.Type) (lo, hi string) {
	bits := uint(t.Bits())
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "0", strconv.FormatUint(math.MaxUint64>>(64-bits), 10)
	}
	return strconv.FormatInt(math.MinInt64>>(64-bits), 10), strconv.FormatInt(math.MaxInt64>>(64-bits), 10)
}
