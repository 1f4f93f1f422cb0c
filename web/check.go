package web

import (
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/urim-rl/urim/agents"
)

type checkRequest struct {
	Spec string `json:"spec"`
}

// handleCheck checks an agent spec as a move or an analysis would use it
// (the policy, the registry, and building the agent, which reads its
// files), so that the page refuses a bad spec at "New game" rather than
// after the first move.
func (s *Server) handleCheck(w http.ResponseWriter, r *http.Request) {
	var q checkRequest
	if err := decode(r, &q); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	an, spec, err := s.newAnalyser(r.Context(), q.Spec, 0, false)
	if err != nil {
		writeError(w, status(err), err)
		return
	}
	_, search := an.a.(agents.Searcher)
	an.close()
	writeJSON(w, map[string]any{"spec": spec, "unit": an.unit, "searches": search})
}

// notFoundPage answers a path the page does not have with a page that says
// so and links back, instead of a bare "404 page not found".
func notFoundPage(files fs.FS, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name == "" || name == "." {
			next.ServeHTTP(w, r)
			return
		}
		if _, err := fs.Stat(files, name); err != nil {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>urim: not found</title><link rel="stylesheet" href="/style.css"></head>` +
				`<body class="notfound"><h1>Not found</h1><p>This server has no page at this address. ` +
				`The board is at <a href="/">/</a>; the API is under /api/ (docs/web.md).</p></body></html>`))
			return
		}
		next.ServeHTTP(w, r)
	})
}
