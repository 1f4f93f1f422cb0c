package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/urim-rl/urim/agents"
	"github.com/urim-rl/urim/env"
	"github.com/urim-rl/urim/tablebase"
)

//go:embed static
var static embed.FS

// Config is what a server may read and do. The zero value serves the page
// with nothing to replay, no table and the default caps.
type Config struct {
	// Data are directories (searched for datasets, game stores and
	// games.csv files) and files (stores, games.csv) of games to replay.
	Data PathList
	// Runs are training run directories, or directories holding some.
	Runs PathList
	// Tablebase is an endgame table file ("" for none).
	Tablebase string
	// Models are further directories or files agents may read
	// (checkpoints); files under Data, Runs and Tablebase may be read too.
	Models PathList
	// AllowExternal lets specs from the page start external engines.
	AllowExternal bool
	// MaxSims, MaxDepth, MaxTime and MaxThreads cap the search budgets of
	// specs from the page (0: 20000 simulations, 14 plies, 10 s, 2 threads).
	MaxSims, MaxDepth int
	MaxTime           time.Duration
	MaxThreads        int
	// MaxJobs is how many searches run at once (0: 2); further requests
	// wait for a free slot, up to QueueWait (0: 30 s), then are refused.
	MaxJobs   int
	QueueWait time.Duration
	// LoopbackHosts refuses requests whose Host header is not a loopback
	// name or address (localhost, 127.0.0.1, [::1]): a server bound to
	// loopback sets it, so that a foreign site cannot reach it by pointing
	// its own name at 127.0.0.1 (DNS rebinding).
	LoopbackHosts bool
}

// Server serves the page and its API. Make one with [New].
type Server struct {
	cfg    Config
	data   []root
	runs   []root
	models []root
	table  *tablebase.Table
	tbRoot []root
	policy policy
	jobs   chan struct{}
	// searches counts the searches run (agent moves, analyses, sweep
	// plies), running the ones under way: /api/info reports both.
	searches, running atomic.Int64
	// built counts the agents built for requests (tests: none is built
	// before its request holds a search slot).
	built atomic.Int64
	cache sourceCache
	mux   *http.ServeMux
}

// New checks cfg (every path must exist; the table must load) and returns
// the server.
func New(cfg Config) (*Server, error) {
	if cfg.MaxSims <= 0 {
		cfg.MaxSims = 20000
	}
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = 14
	}
	if cfg.MaxTime <= 0 {
		cfg.MaxTime = 10 * time.Second
	}
	if cfg.MaxThreads <= 0 {
		cfg.MaxThreads = 2
	}
	if cfg.MaxJobs <= 0 {
		cfg.MaxJobs = 2
	}
	if cfg.QueueWait <= 0 {
		cfg.QueueWait = 30 * time.Second
	}
	s := &Server{cfg: cfg, jobs: make(chan struct{}, cfg.MaxJobs)}
	s.cache.entries = map[string]*cacheEntry{}
	var err error
	add := func(dst *[]root, prefix string, paths []string) {
		for i, p := range paths {
			if err != nil {
				return
			}
			var r root
			if r, err = newRoot(fmt.Sprintf("%s%d", prefix, i), p); err == nil {
				*dst = append(*dst, r)
			}
		}
	}
	add(&s.data, "data", cfg.Data)
	add(&s.runs, "runs", cfg.Runs)
	add(&s.models, "models", cfg.Models)
	if cfg.Tablebase != "" {
		add(&s.tbRoot, "tablebase", []string{cfg.Tablebase})
	}
	if err != nil {
		return nil, err
	}
	if cfg.Tablebase != "" {
		if s.table, err = tablebase.Load(cfg.Tablebase); err != nil {
			return nil, fmt.Errorf("web: --tablebase: %w", err)
		}
	}
	s.policy = policy{allowExternal: cfg.AllowExternal, roots: s.allRoots(), maxSims: cfg.MaxSims,
		maxDepth: cfg.MaxDepth, maxTime: cfg.MaxTime, maxThreads: cfg.MaxThreads}
	s.routes()
	return s, nil
}

// allRoots lists every served directory and file.
func (s *Server) allRoots() []root {
	var out []root
	for _, rs := range [][]root{s.data, s.runs, s.models, s.tbRoot} {
		out = append(out, rs...)
	}
	return out
}

func (s *Server) routes() {
	m := http.NewServeMux()
	sub, _ := fs.Sub(static, "static")
	m.Handle("GET /", notFoundPage(sub, http.FileServerFS(sub)))
	m.HandleFunc("GET /api/info", s.handleInfo)
	m.HandleFunc("POST /api/game", s.handleGame)
	m.HandleFunc("POST /api/move", s.handleMove)
	m.HandleFunc("POST /api/check", s.handleCheck)
	m.HandleFunc("GET /api/networks", s.handleNetworks)
	m.HandleFunc("POST /api/analyse", s.handleAnalyse)
	m.HandleFunc("POST /api/sweep", s.handleSweep)
	m.HandleFunc("POST /api/record", s.handleRecord)
	m.HandleFunc("POST /api/record/load", s.handleLoadRecord)
	m.HandleFunc("GET /api/sources", s.handleSources)
	m.HandleFunc("GET /api/games", s.handleGames)
	m.HandleFunc("GET /api/game", s.handleOneGame)
	m.HandleFunc("GET /api/run", s.handleRun)
	s.mux = m
}

// Handler returns the server's handler: the page, the API, and the refusal
// of cross-origin requests that change state (a foreign Origin or a
// cross-site Sec-Fetch-Site on anything but GET and HEAD).
func (s *Server) Handler() http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusForbidden, errors.New("cross-origin request refused: this server accepts changes from its own page only"))
	}))
	return cop.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.LoopbackHosts && !loopbackHost(r.Host) {
			writeError(w, http.StatusMisdirectedRequest, fmt.Errorf("host %q refused: this server answers to localhost only", r.Host))
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; frame-ancestors 'none'")
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		}
		s.mux.ServeHTTP(w, r)
	}))
}

// maxBody bounds a request's body (a record with its analysis).
const maxBody = 16 << 20

// IsLoopback reports whether addr (host:port) binds only loopback
// addresses, so that the command can warn otherwise.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// loopbackHost reports whether a Host header names this machine's loopback.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// acquire waits for a search slot; release gives it back.
func (s *Server) acquire(ctx context.Context) (release func(), err error) {
	t := time.NewTimer(s.cfg.QueueWait)
	defer t.Stop()
	select {
	case s.jobs <- struct{}{}:
		s.running.Add(1)
		var once sync.Once
		return func() {
			once.Do(func() {
				s.running.Add(-1)
				<-s.jobs
			})
		}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, errBusy
	}
}

var errBusy = errors.New("busy: the server's analyses are all taken; try again shortly (urim serve --max-jobs)")

// status maps an error to its HTTP status.
func status(err error) int {
	switch {
	case errors.Is(err, errOutside), errors.Is(err, errPolicy):
		return http.StatusForbidden
	case errors.Is(err, errNotFound):
		return http.StatusNotFound
	case errors.Is(err, errBusy):
		return http.StatusServiceUnavailable
	case errors.Is(err, context.Canceled):
		return 499 // the client went away
	}
	return http.StatusBadRequest
}

func writeError(w http.ResponseWriter, code int, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// decode reads a JSON body into v, refusing unknown fields.
func decode(r *http.Request, v any) error {
	d := json.NewDecoder(r.Body)
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("bad request body: %w", err)
	}
	return nil
}

type agentInfo struct {
	Name string `json:"name"`
	Help string `json:"help"`
}

func (s *Server) handleInfo(w http.ResponseWriter, r *http.Request) {
	var list []agentInfo
	for _, line := range strings.Split(strings.TrimRight(agents.Help(), "\n"), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		list = append(list, agentInfo{Name: f[0], Help: strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), f[0]))})
	}
	info := map[string]any{
		"presets":        env.PresetNames(),
		"agents":         list,
		"allow_external": s.cfg.AllowExternal,
		"limits": map[string]any{"max_sims": s.cfg.MaxSims, "max_depth": s.cfg.MaxDepth,
			"max_time": s.cfg.MaxTime.String(), "max_threads": s.cfg.MaxThreads, "max_jobs": s.cfg.MaxJobs},
		"searches": s.searches.Load(),
		"running":  s.running.Load(),
	}
	if s.table != nil {
		info["tablebase"] = map[string]any{"rules": s.table.Rules().Name, "seeds": s.table.MaxSeeds()}
	}
	writeJSON(w, info)
}

func (s *Server) handleGame(w http.ResponseWriter, r *http.Request) {
	var q gameRequest
	if err := decode(r, &q); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	g, states, traces, err := s.replay(&q)
	if err != nil {
		writeError(w, status(err), err)
		return
	}
	writeJSON(w, newGameView(g, &q, states, traces))
}

// PathList is a repeatable command-line flag of paths (flag.Value).
type PathList []string

func (l *PathList) String() string { return strings.Join(*l, ",") }

// Set adds one path.
func (l *PathList) Set(v string) error {
	if v == "" {
		return errors.New("empty path")
	}
	*l = append(*l, v)
	return nil
}
