package web

import (
	"bufio"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/urim-rl/urim/dataset"
	"github.com/urim-rl/urim/evaluate"
)

// Source kinds.
const (
	kindDataset = "dataset"
	kindStore   = "store"
	kindCSV     = "csv"
)

// source is a file or directory of games found under the served paths.
type source struct {
	Ref  string `json:"ref"`
	Kind string `json:"kind"`
}

// maxWalk bounds the entries looked at when searching a served directory.
const maxWalk = 20000

// findSources searches a served root for datasets, stores and games.csv
// files (symlinks are not followed; a few levels deep).
func findSources(r *root) []source {
	if !r.dir {
		if k := fileKind(loc{r: r, rel: r.name, ref: r.label}); k != "" {
			return []source{{Ref: r.label, Kind: k}}
		}
		return nil
	}
	var out []source
	seen := 0
	fs.WalkDir(r.fs.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		seen++
		if err != nil || seen > maxWalk {
			return fs.SkipDir
		}
		if d.IsDir() {
			if strings.Count(p, "/") >= 4 || (strings.HasPrefix(d.Name(), ".") && p != ".") {
				return fs.SkipDir
			}
			if _, err := r.fs.Lstat(path.Join(p, dataset.ManifestName)); err == nil {
				out = append(out, source{Ref: refOf(r, p), Kind: kindDataset})
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			if k := fileKind(loc{r: r, rel: p, ref: refOf(r, p)}); k != "" {
				out = append(out, source{Ref: refOf(r, p), Kind: k})
			}
		}
		return nil
	})
	return out
}

// maxCSVBytes bounds a games CSV read whole: about a million games.
const maxCSVBytes = 1 << 30

// maxStoreBytes bounds a game store read (the evaluator's own bound).
const maxStoreBytes = 8 << 30

// fileKind tells a game store (.jsonl with the store header) or a games
// CSV (.csv whose header is evaluate.CSVHeader) from other files.
func fileKind(l loc) string {
	ext := path.Ext(l.rel)
	if ext != ".jsonl" && ext != ".csv" {
		return ""
	}
	f, err := l.open(maxStoreBytes, "a game store or games CSV")
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReader(f).ReadString('\n')
	switch {
	case ext == ".jsonl" && strings.Contains(line, `"urim-games"`):
		return kindStore
	case ext == ".csv" && strings.HasPrefix(line, strings.Join(evaluate.CSVHeader[:4], ",")):
		return kindCSV
	}
	return ""
}

// sourceCache keeps the games of each source read, until its files change.
type sourceCache struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
}

type cacheEntry struct {
	stamp time.Time
	games []Record
}

// stamp is the newest modification time of a source's files.
func stamp(l loc, kind string) time.Time {
	st, err := l.stat()
	if err != nil {
		return time.Time{}
	}
	t := st.ModTime()
	if kind == kindDataset {
		if m, err := l.join(dataset.ManifestName).stat(); err == nil && m.ModTime().After(t) {
			t = m.ModTime()
		}
	}
	return t
}

// games returns the games of the source ref, read once per change. Every
// file is opened inside its root (loc.open), never by a path checked
// earlier.
func (s *Server) games(ref string) ([]Record, error) {
	l, err := resolve(s.allRoots(), ref)
	if err != nil {
		return nil, err
	}
	kind := kindDataset
	if st, err := l.stat(); err == nil && !st.IsDir() {
		if kind = fileKind(l); kind == "" {
			return nil, fmt.Errorf("%s: not a game store, games.csv or dataset: %w", ref, errNotFound)
		}
	}
	key := l.display()
	t := stamp(l, kind)
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	if e, ok := s.cache.entries[key]; ok && e.stamp.Equal(t) {
		return e.games, nil
	}
	var games []Record
	switch kind {
	case kindStore, kindCSV:
		f, err := l.open(maxStoreBytes, "a game store or games CSV")
		if err != nil {
			return nil, err
		}
		defer f.Close()
		var recs []evaluate.Record
		if kind == kindStore {
			st, err := evaluate.ReadStore(f, key)
			if err != nil {
				return nil, err
			}
			recs = st.Records()
		} else if recs, err = evaluate.ReadCSV(f); err != nil {
			return nil, err
		}
		for _, r := range recs {
			games = append(games, Record{Record: r})
		}
	default:
		d, err := l.openDir()
		if err != nil {
			return nil, err
		}
		defer d.Close()
		if games, err = readDataset(d); err != nil {
			return nil, l.refused(err)
		}
	}
	s.cache.entries[key] = &cacheEntry{stamp: t, games: games}
	return games, nil
}

// readDataset reads the game records of a dataset directory (not its
// tensors), opening every file inside it.
func readDataset(dir *os.Root) ([]Record, error) {
	d, err := dataset.OpenIn(dir)
	if err != nil {
		return nil, err
	}
	var out []Record
	for i := range d.Manifest.Shards {
		recs, err := d.LoadRecords(i)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			out = append(out, fromDataset(r))
		}
	}
	return out, nil
}

// fromDataset turns a dataset's game into a record.
func fromDataset(d dataset.Record) Record {
	r := Record{Record: evaluate.Record{Players: d.Agents, Specs: d.Agents,
		Seed: d.Seed, Index: int(d.ID), Opening: d.Opening, Moves: d.Moves, Stores: d.Stores, MatchPoints: d.MatchPoints,
		Reason: d.Reason, Plies: d.Plies}}
	r.SetRules(d.Rules)
	return r
}

func (s *Server) handleSources(w http.ResponseWriter, r *http.Request) {
	type out struct {
		Games []source   `json:"games"`
		Runs  []runEntry `json:"runs"`
	}
	o := out{Games: []source{}, Runs: []runEntry{}}
	for i := range s.data {
		o.Games = append(o.Games, findSources(&s.data[i])...)
	}
	for i := range s.runs {
		o.Runs = append(o.Runs, findRuns(&s.runs[i])...)
	}
	writeJSON(w, o)
}

// gameSummary is one line of a game list.
type gameSummary struct {
	N           int       `json:"n"` // position in the source
	Index       int       `json:"index"`
	Players     [2]string `json:"players"`
	Plies       int       `json:"plies"`
	Stores      [2]int    `json:"stores"`
	MatchPoints [2]int    `json:"match_points"`
	Winner      int       `json:"winner"`
	Reason      string    `json:"reason"`
	// Iteration is the training iteration that played a run's sampled
	// self-play game (GET /api/run's samples), when its specs say.
	Iteration *int `json:"iteration,omitempty"`
}

// maxList bounds a page of a game list.
const maxList = 500

func (s *Server) handleGames(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	games, err := s.games(q.Get("source"))
	if err != nil {
		writeError(w, status(err), err)
		return
	}
	num := func(name string, def int) (int, error) {
		v := q.Get(name)
		if v == "" {
			return def, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%s=%q: want a whole number of 0 or more", name, v)
		}
		return n, nil
	}
	var minLen, maxLen, offset, limit int
	for _, x := range []struct {
		p    *int
		name string
		def  int
	}{{&minLen, "min", 0}, {&maxLen, "max", 1 << 30}, {&offset, "offset", 0}, {&limit, "limit", 100}} {
		if *x.p, err = num(x.name, x.def); err != nil {
			writeError(w, http.StatusBadRequest, err)
			return
		}
	}
	limit = min(limit, maxList)
	player := strings.ToLower(strings.TrimSpace(q.Get("player")))
	result := q.Get("result")
	want := map[string]int{"south": 0, "north": 1, "draw": -1}
	wantWinner, ok := want[result]
	if result != "" && !ok {
		writeError(w, http.StatusBadRequest, fmt.Errorf("result=%q: want south, north or draw", result))
		return
	}
	list := []gameSummary{}
	total := 0
	for i := range games {
		g := &games[i]
		if g.Plies < minLen || g.Plies > maxLen {
			continue
		}
		if player != "" && !strings.Contains(strings.ToLower(g.Players[0]+"\x00"+g.Players[1]+"\x00"+g.Specs[0]+"\x00"+g.Specs[1]), player) {
			continue
		}
		if result != "" && g.Winner() != wantWinner {
			continue
		}
		total++
		if total > offset && len(list) < limit {
			list = append(list, gameSummary{N: i, Index: g.Index, Players: g.Players, Plies: g.Plies, Stores: g.Stores,
				MatchPoints: g.MatchPoints, Winner: g.Winner(), Reason: g.Reason})
		}
	}
	writeJSON(w, map[string]any{"source": q.Get("source"), "total": total, "all": len(games), "games": list})
}

// handleOneGame returns game n of a source, as a record with its game.
func (s *Server) handleOneGame(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	games, err := s.games(q.Get("source"))
	if err != nil {
		writeError(w, status(err), err)
		return
	}
	n, err := strconv.Atoi(q.Get("n"))
	if err != nil || n < 0 || n >= len(games) {
		writeError(w, http.StatusNotFound, fmt.Errorf("n=%q: the source has games 0 to %d: %w", q.Get("n"), len(games)-1, errNotFound))
		return
	}
	rec := games[n]
	l, err := s.load(&rec)
	if err != nil {
		writeError(w, status(err), err)
		return
	}
	writeJSON(w, l)
}
