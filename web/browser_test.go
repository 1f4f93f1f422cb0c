package web

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// docsScreenshot makes TestBrowserGameAnalysisAndGraph keep its screenshot as
// docs/web.png, the README's picture: go test ./web -run
// BrowserGameAnalysis -docs-screenshot.
var docsScreenshot = flag.Bool("docs-screenshot", false, "write the README's screenshot docs/web.png")

// page is a headless Chromium on a test server, failing the test on any
// exception and any console error but the one a refused request logs
// (the page shows those errors itself).
type page struct {
	t    *testing.T
	ctx  context.Context
	srv  *Server
	url  string
	shot int

	mu   sync.Mutex
	errs []string
}

// chromium finds Debian's browser. .ci/run installs it and runs the browser
// tests with URIM_BROWSER_TESTS=1, which makes a missing browser a failure;
// elsewhere a machine without it skips them, and so does CI's plain go test
// ./... (the browser block runs them once).
func chromium(t *testing.T) string {
	required := os.Getenv("URIM_BROWSER_TESTS") != ""
	if os.Getenv("CI") != "" && !required {
		t.Skip("under CI the browser tests run in .ci/run's browser block (URIM_BROWSER_TESTS=1)")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if required {
		t.Fatal("no chromium on PATH: .ci/run installs Debian's chromium package for the browser tests")
	}
	t.Skip("no chromium on PATH (apt-get install chromium); the browser tests are skipped")
	return ""
}

func newPage(t *testing.T, cfg Config) *page { return newPageSized(t, cfg, 1300, 1000) }

// refused is how Chromium logs a request the server refused (4xx, 5xx).
const refused = "Failed to load resource: the server responded with a status of "

// newPageSized is newPage in a window of w×h CSS pixels.
func newPageSized(t *testing.T, cfg Config, w, h int) *page {
	if testing.Short() {
		t.Skip("browser tests are not short")
	}
	exe := chromium(t)
	srv, ts := newTestServer(t, cfg)
	profile, err := os.MkdirTemp("", "urim-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Chromium's children may write to the profile for a moment after
		// it stops.
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(w, h),
	)
	ctx, cancelTab := chromedp.NewContext(alloc)
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	p := &page{t: t, ctx: ctx, srv: srv, url: ts.URL}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() || (m.Type == "error" && !strings.Contains(m.String(), refused)) {
				p.mu.Lock()
				p.errs = append(p.errs, fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line))
				p.mu.Unlock()
			}
		}
	}()
	t.Cleanup(p.checkConsole)
	return p
}

// checkConsole fails the test on any console error or exception.
func (p *page) checkConsole() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.errs {
		p.t.Errorf("console: %s", e)
	}
}

func (p *page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
		p.t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression into out.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// wait polls a JavaScript expression until it is truthy.
func wait[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Poll[T](expr, chromedp.WithPollingInterval(30*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second)))
	if err != nil {
		p.t.Fatalf("waiting for %s: %v", expr, err)
	}
	return v
}

// screenshot writes the page under the test's temporary directory.
func (p *page) screenshot(name string) string {
	p.t.Helper()
	img, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatal(err)
	}
	p.shot++
	path := filepath.Join(shotDir(p.t), fmt.Sprintf("%02d-%s.png", p.shot, name))
	if err := os.WriteFile(path, img, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot %s", path)
	if keep := os.Getenv("URIM_WEB_SHOTS"); keep != "" { // to look at them after the test
		os.MkdirAll(keep, 0o755)
		os.WriteFile(filepath.Join(keep, strings.ReplaceAll(strings.TrimPrefix(p.t.Name(), "TestBrowser"), "/", "-")+"-"+filepath.Base(path)), img, 0o644)
	}
	return path
}

var shotDirs sync.Map

// shotDir is the test's temporary directory for screenshots (made once per
// run of the test: keyed by the test, not its name, which -count repeats).
func shotDir(t *testing.T) string {
	if d, ok := shotDirs.Load(t); ok {
		return d.(string)
	}
	d := t.TempDir()
	shotDirs.Store(t, d)
	t.Cleanup(func() { shotDirs.Delete(t) })
	return d
}

// TestBrowserPlayWholeGame plays a whole game against random by clicking,
// with the keyboard and undo on the way, and checks the animation, the
// pits that cannot be played and the match points at the end.
func TestBrowserPlayWholeGame(t *testing.T) {
	p := newPage(t, Config{})
	p.do(chromedp.Navigate(p.url + "/?south=human&north=random&seed=3"))
	wait[bool](p, `document.querySelectorAll('.pit.legal').length > 0`)
	p.screenshot("start")
	// Illegal pits are not clickable: every pit without .legal is disabled,
	// and North's row is never clickable for South.
	if !eval[bool](p, `[...document.querySelectorAll('.pit:not(.legal)')].every(b => b.getAttribute('aria-disabled') === 'true') &&
		[...document.querySelectorAll('.row.north .pit')].every(b => !b.classList.contains('legal'))`) {
		t.Fatal("a pit that cannot be played is clickable")
	}
	// The first move, sown seed by seed at the normal speed.
	p.clickAt(`.pit.legal[data-pit="2"]`)
	wait[bool](p, `document.querySelector('.pit.sowing') !== null`)
	p.screenshot("sowing")
	wait[bool](p, `document.querySelector('#board').dataset.ply === '2' && document.querySelectorAll('.pit.legal').length > 0`)
	// Keyboard: the letter of a legal pit plays it.
	legal := eval[string](p, `document.querySelector('#board').dataset.legal`)
	pit := strings.Split(legal, ",")[0]
	letter := string(rune('a' + atoi(t, pit)))
	p.do(chromedp.SetValue(chromedp.ID("speed"), "0"), chromedp.Blur(chromedp.ID("speed")), chromedp.KeyEvent(letter))
	wait[bool](p, `document.querySelector('#board').dataset.ply === '4'`)
	// Undo takes back the agent's answer and the move.
	wait[bool](p, `document.querySelectorAll('.pit.legal').length > 0`)
	p.do(chromedp.Click(chromedp.ID("undo")))
	wait[bool](p, `document.querySelector('#board').dataset.ply === '2' && document.querySelectorAll('.pit.legal').length > 0`)
	// Then click to the end.
	for i := 0; ; i++ {
		if i > 500 {
			t.Fatal("no end after 500 moves")
		}
		state := wait[string](p, `!document.querySelector('#result').hidden ? 'over' : (document.body.dataset.busy === 'false' && document.querySelectorAll('.pit.legal').length ? 'move' : '')`)
		if state == "over" {
			break
		}
		p.clickAt(`.pit.legal`)
	}
	res := eval[string](p, `document.querySelector('#result').textContent`)
	if !strings.Contains(res, "match points") {
		t.Fatalf("result %q", res)
	}
	if n := eval[int](p, `document.querySelectorAll('.pit.legal').length`); n != 0 {
		t.Fatalf("%d pits clickable after the end", n)
	}
	p.screenshot("end")
}

// clickAt clicks with the mouse at the middle of the first element that
// matches a CSS selector, scrolled into view (the board is drawn anew
// after each move, so a node found before may be gone by the time a click
// by node lands).
func (p *page) clickAt(css string) {
	p.t.Helper()
	xy := wait[[]float64](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return null; e.scrollIntoView({block: 'nearest'}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, css))
	p.do(chromedp.MouseClickXY(xy[0], xy[1]))
}

func atoi(t *testing.T, s string) int {
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// openGame opens game row k of a replay source from the Replay tab.
func (p *page) openGame(source string, k int) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.ID("tab-replay")))
	wait[bool](p, `document.querySelectorAll('#source option').length > 0`)
	p.do(chromedp.SetValue(chromedp.ID("source"), source), chromedp.Click(chromedp.ID("f-apply")))
	// The list shows the chosen source's games (the tab's own first listing
	// may answer later and is dropped); the row is clicked in the page, in
	// one step, so a list redrawn in between cannot leave a stale node.
	wait[bool](p, fmt.Sprintf(`(document.querySelector('#game-list tbody').dataset.query || '').startsWith(%q) && document.querySelectorAll('#game-list tbody tr').length > %d`,
		"source="+url.QueryEscape(source)+"&", k))
	eval[bool](p, fmt.Sprintf(`(document.querySelector('#game-list tbody tr:nth-child(%d)').click(), true)`, k+1))
	wait[bool](p, `document.body.dataset.mode === 'replay' && document.querySelector('#ply').textContent.startsWith('ply 0 / ')`)
}

// TestBrowserReplayDataset loads a dataset game, filtered by player, and
// steps through it.
func TestBrowserReplayDataset(t *testing.T) {
	p := newPage(t, Config{})
	p.do(chromedp.Navigate(p.url + "/?south=human&north=human"))
	wait[bool](p, `document.querySelectorAll('.pit.legal').length > 0`)
	p.do(chromedp.Click(chromedp.ID("tab-replay")))
	wait[bool](p, `document.querySelectorAll('#source option').length > 0`)
	p.do(chromedp.SetValue(chromedp.ID("source"), "data0/selfplay"), chromedp.SetValue(chromedp.ID("f-player"), "greedy"),
		chromedp.SetValue(chromedp.ID("f-result"), ""), chromedp.Click(chromedp.ID("f-apply")))
	wait[bool](p, `document.querySelector('#game-count').textContent.startsWith('8 of 8')`)
	p.do(chromedp.Click(chromedp.CSS(`#game-list tbody tr:nth-child(2)`)))
	wait[bool](p, `document.body.dataset.mode === 'replay' && document.querySelector('#ply').textContent.startsWith('ply 0 / ')`)
	plies := eval[int](p, `Number(document.querySelector('#ply').textContent.split('/ ')[1])`)
	for i := 1; i <= 5; i++ {
		p.do(chromedp.Click(chromedp.ID("next")))
		wait[bool](p, fmt.Sprintf(`document.querySelector('#board').dataset.ply === '%d'`, i))
	}
	p.do(chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.End))
	wait[bool](p, fmt.Sprintf(`document.querySelector('#board').dataset.ply === '%d'`, plies))
	p.do(chromedp.KeyEvent(kb.Home))
	wait[bool](p, `document.querySelector('#board').dataset.ply === '0'`)
	p.do(chromedp.Click(chromedp.CSS(`#moves li:nth-child(3)`)))
	wait[bool](p, `document.querySelector('#board').dataset.ply === '3'`)
	// A move tried in a replay opens a variation; the record's line stays.
	main := eval[string](p, `S.req.moves.join(',')`)
	other := eval[int](p, `(() => { const b = [...document.querySelectorAll('.pit.legal')].find(b => Number(b.dataset.pit) % P() !== S.req.moves[S.cur]); return b ? Number(b.dataset.pit) : -1; })()`)
	if other < 0 {
		t.Fatal("no other legal move at ply 3 of this game")
	}
	p.clickAt(fmt.Sprintf(`.pit.legal[data-pit="%d"]`, other))
	wait[bool](p, `document.querySelector('#board').dataset.ply === '4' && document.querySelector('#moves .alts') !== null`)
	if got := eval[string](p, `mainLine().join(',')`); got != main {
		t.Fatalf("the main line %s became %s", main, got)
	}
	p.screenshot("replay")
}

// TestBrowserGameAnalysisAndGraph analyses a stored game whole, then clicks the graph.
func TestBrowserGameAnalysisAndGraph(t *testing.T) {
	p := newPage(t, Config{})
	p.do(chromedp.Navigate(p.url + "/"))
	wait[bool](p, `document.querySelectorAll('.pit.legal').length > 0`)
	p.openGame("data0/tourney/games.jsonl", 0)
	positions := eval[int](p, `Number(document.querySelector('#ply').textContent.split('/ ')[1]) + 1`)
	p.do(chromedp.SetValue(chromedp.ID("an-spec"), "mcts:sims=300"), chromedp.Click(chromedp.ID("analyse-game")))
	wait[bool](p, `document.querySelector('#analyse-game-text').textContent.startsWith('done')`)
	if got := eval[int](p, `Number(document.querySelector('#graph').dataset.points)`); got != positions {
		t.Fatalf("the graph has %d points for %d positions", got, positions)
	}
	graded := eval[string](p, `document.querySelector('#graph').dataset.marked`)
	marked := eval[int](p, `document.querySelectorAll('#moves li[data-grade]').length`)
	if (graded == "") != (marked == 0) || (graded != "" && len(strings.Split(graded, ",")) != marked) {
		t.Fatalf("graded moves %q on the graph, %d marked in the move list", graded, marked)
	}
	// A click at the middle of the graph goes to the middle ply.
	box, err := chromedp.Run(p.ctx, chromedp.Dimensions(chromedp.ID("graph")))
	if err != nil {
		t.Fatal(err)
	}
	q := box.Content
	x := q[0] + 34 + (q[2]-q[0]-42)/2
	p.do(chromedp.MouseClickXY(x, (q[1]+q[5])/2))
	ply := wait[int](p, `Number(document.querySelector('#board').dataset.ply)`)
	if mid := (positions - 1) / 2; ply < mid-1 || ply > mid+1 {
		t.Fatalf("a click at the middle of the graph went to ply %d of %d", ply, positions-1)
	}
	if !eval[bool](p, `document.querySelector('#an-result').textContent.includes('best move')`) {
		t.Fatal("no analysis shown at the ply")
	}
	shot := p.screenshot("game-analysis")
	if *docsScreenshot {
		img, _ := os.ReadFile(shot)
		if err := os.WriteFile(filepath.Join("..", "docs", "web.png"), img, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBrowserKeptAnalysis loads a record that carries its analysis and
// checks that the page shows it without a search.
func TestBrowserKeptAnalysis(t *testing.T) {
	p := newPage(t, Config{})
	q := playedGame(t, p.url)
	lines := gameAnalysisLines(t, p.url, moveRequest{Game: q, Spec: "mcts:sims=60", Seed: 2})
	an := lines[len(lines)-1].Analysis
	rec, err := p.srv.makeRecord(&recordRequest{Game: q, Players: [2]string{"random", "greedy"}, Specs: [2]string{"random", "greedy"}, Analysis: an})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(rec)
	file := filepath.Join(t.TempDir(), "game.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.Navigate(p.url + "/?south=human&north=human"))
	wait[bool](p, `document.querySelectorAll('.pit.legal').length > 0`)
	before := p.srv.searches.Load()
	p.do(chromedp.SetUploadFiles(chromedp.ID("load-record"), []string{file}))
	n := wait[int](p, `Number(document.querySelector('#graph').dataset.points)`)
	if n != len(an.Plies) {
		t.Fatalf("graph of %d points, the kept analysis has %d", n, len(an.Plies))
	}
	p.do(chromedp.Click(chromedp.ID("next")), chromedp.Click(chromedp.ID("next")))
	wait[bool](p, `document.querySelector('#an-result').textContent.includes('kept analysis by mcts:sims=60')`)
	time.Sleep(200 * time.Millisecond)
	if after := p.srv.searches.Load(); after != before {
		t.Fatalf("loading a record with its analysis ran %d searches", after-before)
	}
	p.screenshot("kept")
}

// TestBrowserRunPage shows a training run's charts and refreshes them as a
// row is added.
func TestBrowserRunPage(t *testing.T) {
	p := newPage(t, Config{})
	p.do(chromedp.Navigate(p.url + "/?south=human&north=human"))
	wait[bool](p, `document.querySelectorAll('.pit.legal').length > 0`)
	p.do(chromedp.Click(chromedp.ID("tab-runs")))
	wait[bool](p, `document.querySelector('a[data-run]') !== null`)
	p.do(chromedp.Click(chromedp.CSS(`a[data-run]`)))
	for _, c := range []string{"chart-loss", "chart-entropy", "chart-elo", "chart-speed"} {
		wait[bool](p, fmt.Sprintf(`Number(document.querySelector('#%s').dataset.points) > 0`, c))
	}
	if n := eval[int](p, `Number(document.querySelector('#chart-loss').dataset.points)`); n != 6 {
		t.Fatalf("loss chart with %d points, want 2 series of 3", n)
	}
	if n := eval[int](p, `document.querySelectorAll('#run-samples tbody tr').length`); n != 3 {
		t.Fatalf("%d sampled games listed", n)
	}
	p.screenshot("run")
	// The run goes on: a new row shows without a reload.
	path := filepath.Join(testFixture(t).runs, "run1", "metrics.csv")
	old, _ := os.ReadFile(path)
	t.Cleanup(func() { os.WriteFile(path, old, 0o644) })
	if err := os.WriteFile(path, append(old, []byte("4,40,64,4300,57,0,0,5,860,16600,50,10,0.001,1.1,0.5,1.1,0.005,0.9,300,250,350,4\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	wait[bool](p, `Number(document.querySelector('#chart-loss').dataset.points) === 8`)
	// A sampled game opens for replay.
	p.do(chromedp.Click(chromedp.CSS(`#run-samples tbody tr`)))
	wait[bool](p, `!document.querySelector('#game-area').hidden && document.body.dataset.mode === 'replay'`)
	p.screenshot("sample")
}

// TestBrowserWatchFromPosition watches two agents play out a game started
// from a position in the notation, and shows the search behind an agent's
// move.
func TestBrowserWatchFromPosition(t *testing.T) {
	p := newPage(t, Config{})
	start := "2,0,3,1,0,4/0,2,1,3,0,1 10-9 S 30"
	p.do(chromedp.Navigate(p.url + "/?south=mcts:sims=200&north=greedy&speed=0&start=" + strings.ReplaceAll(strings.ReplaceAll(start, " ", "+"), "/", "%2F")))
	wait[bool](p, `!document.querySelector('#result').hidden`)
	if got := eval[string](p, `document.querySelector('#result').textContent`); !strings.Contains(got, "match points") {
		t.Fatalf("result %q", got)
	}
	// South's first move was mcts's: its search is shown at position 0.
	p.do(chromedp.KeyEvent(kb.Home))
	wait[bool](p, `document.querySelector('#board').dataset.ply === '0' && document.querySelector('#an-result').textContent.includes("the search behind the move of mcts:sims=200")`)
	if !eval[bool](p, `document.querySelector('#an-result').textContent.includes('principal variation') && document.querySelectorAll('.visits .col').length > 0`) {
		t.Fatal("the agent's search lacks its principal variation or visits")
	}
	p.screenshot("watched")
}

// TestBrowserGameAnalysisCancel cancels a whole-game analysis from the page: the server stops
// and frees its slot.
func TestBrowserGameAnalysisCancel(t *testing.T) {
	p := newPage(t, Config{})
	p.do(chromedp.Navigate(p.url + "/?south=human&north=human"))
	wait[bool](p, `document.querySelectorAll('.pit.legal').length > 0`)
	p.openGame("data0/tourney/games.jsonl", 3)
	p.do(chromedp.SetValue(chromedp.ID("an-spec"), "mcts:sims=20000"), chromedp.Click(chromedp.ID("analyse-game")))
	wait[bool](p, `Number(document.querySelector('#analyse-game-progress').value) >= 1`)
	p.do(chromedp.Click(chromedp.ID("cancel")))
	wait[bool](p, `document.querySelector('#analyse-game-text').textContent === 'cancelled' && !document.querySelector('#analyse-game').disabled`)
	deadline := time.Now().Add(20 * time.Second)
	for p.srv.running.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the whole-game analysis still runs after Cancel")
		}
		time.Sleep(20 * time.Millisecond)
	}
	p.screenshot("cancelled")
}
