package web

import (
	"io/fs"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
)

// maxNetworks bounds the checkpoints /api/networks lists.
const maxNetworks = 200

// runBest is a run's best network, relative to its directory.
const runBest = "checkpoints/best.ckpt"

// handleNetworks lists the networks the page may play against (the
// teaching mode): every .ckpt file of the served models (two levels down)
// and each served run's best.ckpt, by their served names.
func (s *Server) handleNetworks(w http.ResponseWriter, r *http.Request) {
	out := []string{}
	for i := range s.models {
		m := &s.models[i]
		if !m.dir {
			if strings.HasSuffix(m.real, ".ckpt") {
				out = append(out, m.label)
			}
			continue
		}
		filepath.WalkDir(m.real, func(p string, d fs.DirEntry, err error) error {
			if err != nil || len(out) >= maxNetworks {
				return filepath.SkipDir
			}
			rel, _ := filepath.Rel(m.real, p)
			if d.IsDir() && p != m.real && (strings.Count(rel, string(filepath.Separator)) >= 1 || d.Name()[0] == '.') {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() && strings.HasSuffix(p, ".ckpt") {
				out = append(out, refOf(m, filepath.ToSlash(rel)))
			}
			return nil
		})
	}
	for i := range s.runs {
		for _, run := range findRuns(&s.runs[i]) {
			if ref := runBestRef(&s.runs[i], run.Ref); ref != "" {
				out = append(out, ref)
			}
		}
	}
	sort.Strings(out)
	writeJSON(w, map[string]any{"networks": out[:min(len(out), maxNetworks)]})
}

// runBestRef returns the served name of the best network of the run ref
// inside r, or "" when it has none yet.
func runBestRef(r *root, ref string) string {
	dir, err := resolve([]root{*r}, ref)
	if err != nil {
		return ""
	}
	if st, err := dir.join(runBest).stat(); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	return joinRef(ref, runBest)
}
