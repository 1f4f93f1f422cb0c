package web

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/urim-rl/urim/internal/inputfile"
)

// errOutside is wrapped by every refusal of a path that leaves the served
// directories and files.
var errOutside = errors.New("outside the served directories")

// root is one directory or file given on the command line, named in the API
// by its label ("data0", "runs1", ...). Everything read under it is opened
// through fs, relative to it (os.Root): a symlink that leads out is refused
// in the same step as the open, so a directory swapped for a symlink
// between a check and an open cannot lead a read out.
type root struct {
	label string
	path  string   // as given
	real  string   // absolute, symlinks resolved
	dir   bool     // a directory (else a file)
	fs    *os.Root // the directory, or the file's directory
	fsDir string   // the path of fs
	name  string   // a file root's name in fs ("." for a directory)
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
	r := root{label: label, path: path, real: real, dir: st.IsDir(), name: "."}
	dir := real
	if !r.dir {
		dir, r.name = filepath.Dir(real), filepath.Base(real)
	}
	r.fsDir = dir
	if r.fs, err = os.OpenRoot(dir); err != nil {
		return root{}, fmt.Errorf("web: %s: %w", path, err)
	}
	return r, nil
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

// loc is a path inside a root: rel is slash-separated, relative to r.fs
// ("." for a directory root itself).
type loc struct {
	r   *root
	rel string
	ref string // the API reference
}

// join returns the location of name (slash-separated) inside l.
func (l loc) join(name string) loc {
	return loc{r: l.r, rel: path.Join(l.rel, name), ref: l.ref + "/" + name}
}

// osPath is l as a path on this machine, for what must name a file rather
// than open it (an agent spec's file parameter, checked again by confine).
func (l loc) osPath() string { return filepath.Join(l.r.fsDir, filepath.FromSlash(l.rel)) }

// stat stats l inside its root, following symlinks that stay inside.
func (l loc) stat() (fs.FileInfo, error) { return l.r.fs.Stat(l.rel) }

// open opens the regular file l inside its root (inputfile.OpenIn).
func (l loc) open(limit int64, what string) (*inputfile.File, error) {
	f, err := inputfile.OpenIn(l.r.fs, l.rel, limit, what)
	return f, l.refused(err)
}

// openDir opens the directory l as a root of its own.
func (l loc) openDir() (*os.Root, error) {
	d, err := l.r.fs.OpenRoot(l.rel)
	return d, l.refused(err)
}

// display is the path of l, for names in errors and rules.
func (l loc) display() string { return filepath.Join(l.r.fsDir, filepath.FromSlash(l.rel)) }

// refused turns an error of an open inside the root into the API's: a
// symlink out of the root (or a directory swapped for one) is errOutside,
// a missing file errNotFound; other errors are kept.
func (l loc) refused(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errEscapes()):
		return fmt.Errorf("%w: %q leads out of %s through a symlink (%v)", errOutside, l.ref, l.r.label, err)
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR), errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("%s: %w (%v)", l.ref, errNotFound, err)
	}
	return err
}

// errEscapes is the error os.Root gives for a path that leads out of it
// (the os package does not export it), found once by asking a root for
// its parent.
var errEscapes = sync.OnceValue(func() error {
	r, err := os.OpenRoot(os.TempDir())
	if err != nil {
		return errOutside // no probe: matches nothing os.Root returns
	}
	defer r.Close()
	_, err = r.Stat("..")
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return errOutside
})

// resolve turns an API reference "LABEL" or "LABEL/relative/path" into a
// location inside that root. It refuses absolute paths, ".." segments,
// unknown labels, and any path whose symlinks lead out of the root; every
// later open of the location is checked by the root again.
func resolve(roots []root, ref string) (loc, error) {
	label, rel, _ := strings.Cut(ref, "/")
	var r *root
	for i := range roots {
		if roots[i].label == label {
			r = &roots[i]
		}
	}
	if r == nil {
		return loc{}, fmt.Errorf("%w: %q names no served directory or file", errOutside, ref)
	}
	if rel == "" {
		return loc{r: r, rel: r.name, ref: label}, nil
	}
	if !r.dir || strings.Contains(rel, "\\") || strings.HasPrefix(rel, "/") || strings.ContainsRune(rel, 0) {
		return loc{}, fmt.Errorf("%w: %q", errOutside, ref)
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == ".." {
			return loc{}, fmt.Errorf("%w: %q has a .. segment", errOutside, ref)
		}
	}
	l := loc{r: r, rel: path.Clean(rel), ref: ref}
	if _, err := l.stat(); err != nil {
		return loc{}, l.refused(err)
	}
	return l, nil
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

// refOf returns the API reference of the slash-separated path rel inside
// the directory root r.
func refOf(r *root, rel string) string {
	if rel == "." || rel == "" {
		return r.label
	}
	return r.label + "/" + rel
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
