// Package internal_test checks the direction of the project's imports: the
// house is built cmd → front ends (web, capi) → train, evaluate, bench →
// agents → nn, tablebase → env → internal, and no floor reaches up.
package internal_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/urim-rl/urim/"

// forbidden maps a package prefix to the project prefixes its non-test files
// may not import. A prefix "x" covers "x" and "x/...".
var forbidden = map[string][]string{
	"internal":  {"env", "agents", "nn", "tablebase", "train", "evaluate", "dataset", "bench", "web", "capi", "cmd"},
	"env":       {"agents", "nn", "tablebase", "train", "evaluate", "dataset", "bench", "web", "capi", "cmd"},
	"nn":        {"agents", "tablebase", "train", "evaluate", "dataset", "bench", "web", "capi", "cmd"},
	"tablebase": {"agents", "nn", "train", "evaluate", "dataset", "bench", "web", "capi", "cmd"},
	"agents":    {"train", "evaluate", "dataset", "bench", "web", "capi", "cmd"},
	"evaluate":  {"train", "dataset", "bench", "web", "capi", "cmd"},
	"dataset":   {"train", "evaluate", "bench", "web", "capi", "cmd"},
	"train":     {"bench", "web", "capi", "cmd"},
	"bench":     {"web", "capi", "cmd"},
	"web":       {"capi", "cmd"},
	"capi":      {"web", "cmd"},
}

func under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

func TestImportsPointDown(t *testing.T) {
	root := ".."
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "python" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			if !strings.HasPrefix(imp, module) {
				continue
			}
			imp = strings.TrimPrefix(imp, module)
			for floor, above := range forbidden {
				if !under(pkg, floor) {
					continue
				}
				for _, up := range above {
					if under(imp, up) {
						t.Errorf("%s imports %s: %s/ may not import %s/", path, imp, floor, up)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked only %d files: is the test run from internal/?", checked)
	}
}
