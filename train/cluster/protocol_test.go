package cluster

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// protocolRow is one row of the Protocol table of docs/distributed.md.
type protocolRow struct {
	line                           int
	kind, value, constant, payload string
}

var backticked = regexp.MustCompile("`([^`]*)`")

// protocolTable returns the rows of the table under "## Protocol" in
// docs/distributed.md: the first backticked text of the name and constant
// cells, and the payload cell as written.
func protocolTable(t *testing.T) []protocolRow {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "distributed.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []protocolRow
	in := false
	sc := bufio.NewScanner(bytes.NewReader(doc))
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if strings.HasPrefix(l, "## ") {
			in = l == "## Protocol"
			continue
		}
		if !in || !strings.HasPrefix(l, "|") || strings.HasPrefix(l, "|---") || strings.HasPrefix(l, "| kind ") {
			continue
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		if len(cells) != 5 {
			t.Errorf("docs/distributed.md:%d: %d cells, want 5", n, len(cells))
			continue
		}
		first := func(s string) string {
			if m := backticked.FindStringSubmatch(s); m != nil {
				return m[1]
			}
			return ""
		}
		rows = append(rows, protocolRow{line: n, kind: strings.TrimSpace(cells[0]),
			value: first(cells[1]), constant: first(cells[2]), payload: cells[3]})
	}
	if len(rows) == 0 {
		t.Fatal("docs/distributed.md has no Protocol table")
	}
	return rows
}

// protocolDecls returns the constants and variables of protocol.go with
// their values as written (a string literal unquoted), and its struct
// types.
func protocolDecls(t *testing.T) (map[string]string, map[string]*ast.StructType) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "protocol.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	values, types := map[string]string{}, map[string]*ast.StructType{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, s := range g.Specs {
			switch s := s.(type) {
			case *ast.ValueSpec:
				if len(s.Values) != len(s.Names) {
					t.Fatalf("protocol.go: %s: one value for each name, please", s.Names[0])
				}
				for i, name := range s.Names {
					var b strings.Builder
					_ = printer.Fprint(&b, fset, s.Values[i])
					v := b.String()
					if lit, ok := s.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						v, _ = strconv.Unquote(lit.Value)
					}
					values[name.Name] = v
				}
			case *ast.TypeSpec:
				if st, ok := s.Type.(*ast.StructType); ok {
					types[s.Name.Name] = st
				}
			}
		}
	}
	return values, types
}

// jsonNames returns the JSON names of a struct's fields.
func jsonNames(st *ast.StructType) []string {
	var out []string
	for _, f := range st.Fields.List {
		if f.Tag == nil {
			continue
		}
		tag, _ := strconv.Unquote(f.Tag.Value)
		if name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ","); name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// TestProtocolTable: the Protocol table of docs/distributed.md has one row
// for each constant and variable of protocol.go, with its value as
// written there, and a key whose value is a JSON type of protocol.go
// lists that type's fields.
func TestProtocolTable(t *testing.T) {
	values, types := protocolDecls(t)
	seen := map[string]bool{}
	for _, r := range protocolTable(t) {
		at := "docs/distributed.md:" + strconv.Itoa(r.line)
		v, ok := values[r.constant]
		switch {
		case !ok:
			t.Errorf("%s: %q is no constant of train/cluster/protocol.go", at, r.constant)
			continue
		case seen[r.constant]:
			t.Errorf("%s: %s is in the table twice", at, r.constant)
		case r.value != v:
			t.Errorf("%s: %s is `%s` in the table, `%s` in protocol.go", at, r.constant, r.value, v)
		}
		seen[r.constant] = true
		if typ := backticked.FindStringSubmatch(r.payload); typ != nil && types[typ[1]] != nil && r.kind == "KV key" {
			var listed []string
			for _, m := range backticked.FindAllStringSubmatch(r.payload, -1)[1:] {
				listed = append(listed, m[1])
			}
			if want := jsonNames(types[typ[1]]); !slices.Equal(listed, want) {
				t.Errorf("%s: %s lists the fields %q of %s, protocol.go has %q", at, r.constant, listed, typ[1], want)
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(values)) {
		if !seen[name] {
			t.Errorf("%s of protocol.go has no row in the Protocol table of docs/distributed.md", name)
		}
	}
}
