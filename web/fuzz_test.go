package web

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzResolve checks that no reference resolves outside its root.
func FuzzResolve(f *testing.F) {
	fx := testFixture(f)
	r, err := newRoot("data0", fx.data)
	if err != nil {
		f.Fatal(err)
	}
	roots := []root{r}
	for _, s := range []string{"data0", "data0/selfplay", "data0/../outside", "data0/escape/secret.jsonl", "data0//etc", "data0/./tourney/../tourney/games.csv", "x/y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		l, err := resolve(roots, ref)
		if err != nil {
			return
		}
		real, _ := filepath.EvalSymlinks(fx.data)
		p, err := filepath.EvalSymlinks(l.display())
		if err != nil {
			t.Fatalf("%q resolved to %s, which is not there: %v", ref, l.display(), err)
		}
		if p != real && !strings.HasPrefix(p, real+string(filepath.Separator)) {
			t.Fatalf("%q resolved to %s, outside %s", ref, p, real)
		}
	})
}

// FuzzGame sends arbitrary bodies to /api/game: the answer is 200 or a
// client error, never a panic or a server error.
func FuzzGame(f *testing.F) {
	s, _ := newTestServer(f, Config{})
	h := s.Handler()
	for _, b := range []string{`{"rules":"urim","moves":[2,3]}`, `{"start":"0,0,0,0,1,1/1,0,0,0,0,2 15-16 S 40","moves":[5]}`,
		`{"rules_yaml":"preset: oware\n"}`, `{"custom_rules":{"pits_per_row":9}}`, `{"moves":[-1]}`, `{"rules":"data0/urim5.yaml"}`} {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest("POST", "/api/game", strings.NewReader(body))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK && (w.Code < 400 || w.Code >= 500) {
			t.Fatalf("%q: status %d %s", body, w.Code, w.Body)
		}
	})
}
