package web

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/http"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/train"
)

// Files of a training run directory (docs/config.md, "The run directory").
const (
	runMetrics  = "metrics.csv"
	runConfig   = "config.yaml"
	runSamples  = "selfplay/games.jsonl"
	runEvalGame = "eval/games.jsonl"
)

// runEntry is a training run found under the served run paths.
type runEntry struct {
	Ref  string `json:"ref"`
	Name string `json:"name"`
}

// isRun reports whether l looks like a training run directory: it holds a
// metrics.csv or config.yaml that is a regular file (not a symlink).
func isRun(l loc) bool {
	for _, f := range []string{runMetrics, runConfig} {
		if st, err := l.r.fs.Lstat(path.Join(l.rel, f)); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// findRuns lists the runs of a served run root: the root itself, or the
// run directories one or two levels below it.
func findRuns(r *root) []runEntry {
	if !r.dir {
		return nil
	}
	if isRun(loc{r: r, rel: ".", ref: r.label}) {
		return []runEntry{{Ref: r.label, Name: filepath.Base(r.real)}}
	}
	var out []runEntry
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		entries, err := fs.ReadDir(r.fs.FS(), dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if !e.IsDir() || e.Name()[0] == '.' {
				continue // symlinks are not followed
			}
			p := path.Join(dir, e.Name())
			switch {
			case isRun(loc{r: r, rel: p}):
				out = append(out, runEntry{Ref: refOf(r, p), Name: p})
			case depth < 2:
				walk(p, depth+1)
			}
		}
	}
	walk(".", 1)
	return out
}

// runView is a training run's page data.
type runView struct {
	Ref  string `json:"ref"`
	Name string `json:"name"`
	// Columns holds metrics.csv by column name, one value per iteration
	// (null for an empty cell).
	Header  []string              `json:"header"`
	Columns map[string][]*float64 `json:"columns"`
	Rows    int                   `json:"rows"`
	// Modified is when metrics.csv last changed (Unix seconds; 0 if the
	// run has none yet), AgeS how long ago.
	Modified int64   `json:"modified"`
	AgeS     float64 `json:"age_s"`
	// Samples are the latest sampled self-play games (newest last), from
	// SamplesRef; EvalRef names the evaluation games.
	Samples    []gameSummary `json:"samples"`
	SamplesRef string        `json:"samples_ref,omitempty"`
	EvalRef    string        `json:"eval_ref,omitempty"`
	// Best names the run's best network (checkpoints/best.ckpt), for the
	// page's "play this network"; empty while it has none.
	Best string `json:"best,omitempty"`
}

// maxMetricsBytes bounds a metrics.csv read (a row of a few hundred bytes
// an iteration).
const maxMetricsBytes = 1 << 30

// maxSamples is how many of the latest sampled games a run page lists.
const maxSamples = 12

func (s *Server) handleRun(w http.ResponseWriter, r *http.Request) {
	ref := r.URL.Query().Get("run")
	dir, err := resolve(s.runs, ref)
	if err != nil {
		writeError(w, status(err), err)
		return
	}
	if !isRun(dir) {
		writeError(w, http.StatusNotFound, fmt.Errorf("%s is not a training run directory (no %s or %s): %w", ref, runMetrics, runConfig, errNotFound))
		return
	}
	v := runView{Ref: ref, Name: filepath.Base(dir.display()), Columns: map[string][]*float64{}, Samples: []gameSummary{}}
	mloc := dir.join(runMetrics)
	t := &train.Table{} // no metrics.csv yet
	f, err := mloc.open(maxMetricsBytes, "a metrics.csv")
	switch {
	case err == nil:
		t, err = train.ParseMetrics(f, mloc.display())
		f.Close()
		if err != nil {
			writeError(w, http.StatusInternalServerError, err)
			return
		}
	case !errors.Is(err, errNotFound):
		writeError(w, status(err), err)
		return
	}
	v.Header, v.Rows = t.Header, len(t.Rows)
	for _, h := range t.Header {
		col := t.Column(h)
		out := make([]*float64, len(col))
		for i, x := range col {
			if !math.IsNaN(x) && !math.IsInf(x, 0) {
				out[i] = &col[i]
			}
		}
		v.Columns[h] = out
	}
	if st, err := mloc.stat(); err == nil {
		v.Modified = st.ModTime().Unix()
		v.AgeS = time.Since(st.ModTime()).Seconds()
	}
	if _, err := dir.join(runSamples).stat(); err == nil {
		v.SamplesRef = joinRef(ref, runSamples)
		if games, err := s.games(v.SamplesRef); err == nil {
			from := max(0, len(games)-maxSamples)
			for i := from; i < len(games); i++ {
				g := &games[i]
				v.Samples = append(v.Samples, gameSummary{N: i, Index: g.Index, Players: g.Players, Plies: g.Plies,
					Stores: g.Stores, MatchPoints: g.MatchPoints, Winner: g.Winner(), Reason: g.Reason, Iteration: sampleIteration(g.Specs)})
			}
		}
	}
	if _, err := dir.join(runEvalGame).stat(); err == nil {
		v.EvalRef = joinRef(ref, runEvalGame)
	}
	for i := range s.runs {
		if s.runs[i].label == labelOf(ref) {
			v.Best = runBestRef(&s.runs[i], ref)
		}
	}
	writeJSON(w, v)
}

func labelOf(ref string) string { l, _, _ := strings.Cut(ref, "/"); return l }

func joinRef(ref, rel string) string { return ref + "/" + rel }

// sampleIteration reads the iteration that played a sampled self-play game
// from its specs (train writes them as selfplay:iter=N), or nil.
func sampleIteration(specs [2]string) *int {
	sp, err := agents.ParseSpec(specs[0])
	if err != nil || sp.Name != "selfplay" {
		return nil
	}
	n, err := strconv.Atoi(sp.Params["iter"])
	if err != nil || n < 0 {
		return nil
	}
	return &n
}
