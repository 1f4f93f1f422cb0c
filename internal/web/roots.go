package web

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// errOutside is wrapped by every refusal of a path that leaves the served
// directories and files.
var errOutside = errors.New("outside the served directories")

// root is one directory or file given on the command line, named in the API
// by its label ("data0", "runs1", ...).
type root struct {
	label string
	path  string // as given
	real  string // absolute, symlinks resolved
	dir   bool
}

func newRoot(label, path string) (root, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return root{}, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return root{}, fmt.Errorf("web: %s: %w", path, err)
	}
	st, err := os.Stat(real)
	if err != nil {
		return root{}, fmt.Errorf("web: %s: %w", path, err)
	}
	return root{label: label, path: path, real: real, dir: st.IsDir()}, nil
}

// contains reports whether the resolved path p is the root or inside it.
func (r *root) contains(p string) bool {
	if p == r.real {
		return true
	}
	if !r.dir {
		return false
	}
	rel, err := filepath.Rel(r.real, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// resolve turns an API reference "LABEL" or "LABEL/relative/path" into a
// real path inside that root. It refuses absolute paths, ".." segments,
// unknown labels, and any path whose symlinks lead out of the root.
func resolve(roots []root, ref string) (string, error) {
	label, rel, _ := strings.Cut(ref, "/")
	var r *root
	for i := range roots {
		if roots[i].label == label {
			r = &roots[i]
		}
	}
	if r == nil {
		return "", fmt.Errorf("%w: %q names no served directory or file", errOutside, ref)
	}
	if rel == "" {
		return r.real, nil
	}
	if !r.dir || strings.Contains(rel, "\\") || strings.HasPrefix(rel, "/") || strings.ContainsRune(rel, 0) {
		return "", fmt.Errorf("%w: %q", errOutside, ref)
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == ".." {
			return "", fmt.Errorf("%w: %q has a .. segment", errOutside, ref)
		}
	}
	p := filepath.Join(r.real, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", fmt.Errorf("%s: %w", ref, errNotFound)
	}
	if !r.contains(real) {
		return "", fmt.Errorf("%w: %q leads out of %s through a symlink", errOutside, ref, r.label)
	}
	return real, nil
}

// confine checks a file path typed in an agent spec (relative to the
// server's working directory, or absolute) and returns it resolved, if it
// is inside one of roots.
func confine(roots []root, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, errNotFound)
	}
	for i := range roots {
		if roots[i].contains(real) {
			return real, nil
		}
	}
	return "", fmt.Errorf("%w: %s (serve it with --models, --data or --tablebase)", errOutside, path)
}

// errNotFound is wrapped by the error for a missing file or game.
var errNotFound = errors.New("not found")

// refOf returns the API reference of the real path p inside root r.
func refOf(r *root, p string) string {
	rel, err := filepath.Rel(r.real, p)
	if err != nil || rel == "." {
		return r.label
	}
	return r.label + "/" + filepath.ToSlash(rel)
}

// isRoot reports whether label names one of the server's roots.
func (s *Server) isRoot(label string) bool {
	for _, r := range s.allRoots() {
		if r.label == label {
			return true
		}
	}
	return false
}
