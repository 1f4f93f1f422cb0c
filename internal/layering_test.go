// Package internal_test checks the direction of the project's imports: the
// house is built cmd → front ends (web, capi) → train, evaluate, bench →
// agents → nn, tablebase → env → internal, and no floor reaches up; and
// train/cluster depends on no training algorithm.
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

// projectImports returns the project's imports of every package's non-test
// files: for each package (its path in the module), each project package
// it imports with the first file that does.
func projectImports(t *testing.T) map[string]map[string]string {
	t.Helper()
	root := ".."
	fset := token.NewFileSet()
	checked := 0
	imports := map[string]map[string]string{}
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
		if imports[pkg] == nil {
			imports[pkg] = map[string]string{}
		}
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			if !strings.HasPrefix(imp, module) {
				continue
			}
			imp = strings.TrimPrefix(imp, module)
			if _, ok := imports[pkg][imp]; !ok {
				imports[pkg][imp] = path
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
	return imports
}

func TestImportsPointDown(t *testing.T) {
	for pkg, imps := range projectImports(t) {
		for imp, path := range imps {
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
	}
}

// TestClusterKnowsNoAlgorithm: train/cluster depends, directly or through
// other packages, on no package of train/ but the run core train itself:
// no algorithm (train/alphazero, train/ppo, train/all), so that an
// algorithm is distributed through its train.RemotePart alone.
func TestClusterKnowsNoAlgorithm(t *testing.T) {
	imports := projectImports(t)
	const from = "train/cluster"
	if imports[from] == nil {
		t.Fatalf("no package %s", from)
	}
	// via[p] is the package through which p was reached first.
	via := map[string]string{from: ""}
	todo := []string{from}
	for len(todo) > 0 {
		p := todo[0]
		todo = todo[1:]
		for imp := range imports[p] {
			if _, ok := via[imp]; !ok {
				via[imp] = p
				todo = append(todo, imp)
			}
		}
	}
	for p := range via {
		if p == from || p == "train" || !under(p, "train") {
			continue
		}
		chain := p
		for q := via[p]; q != ""; q = via[q] {
			chain = q + " → " + chain
		}
		t.Errorf("%s depends on %s (%s): the cluster may know the run core only", from, p, chain)
	}
}
