package web

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	_ "github.com/urim-rl/urim/agents/all" // the agents the specs name register
)

// sizes are the windows the error-path tests run at: a desktop and a phone
// (390×844).
var sizes = []struct {
	name string
	w, h int
}{{"desktop", 1300, 1000}, {"phone", 390, 844}}

// slowBrowser skips the error-path tests unless URIM_BROWSER_TESTS is set
// (.ci/run's browser block): at two window sizes they take minutes, too
// long for a plain go test ./... on a machine that has Chromium.
func slowBrowser(t *testing.T) {
	if os.Getenv("URIM_BROWSER_TESTS") == "" {
		t.Skip("the error-path browser tests run with URIM_BROWSER_TESTS=1 (.ci/run)")
	}
}

// errorText waits for the error box to show and returns its text.
func (p *page) errorText() string {
	p.t.Helper()
	return waitShort(p, `(() => { const b = document.querySelector("#error"); return b.hidden ? "" : b.textContent; })()`)
}

func (p *page) open(path string) {
	p.t.Helper()
	p.do(chromedp.Navigate(p.url + path))
	wait[bool](p, `S.info !== null || !document.querySelector('#error').hidden`)
}

// keepsError checks that the error box still holds want after the game list
// and the sources have answered (defect 2: their success wiped it).
func (p *page) keepsError(want string) {
	p.t.Helper()
	if got := p.errorText(); !strings.Contains(got, want) {
		p.t.Fatalf("error %q, want it to name %q", got, want)
	}
	wait[bool](p, `document.querySelectorAll('#game-list tbody tr').length > 0`)
	time.Sleep(300 * time.Millisecond)
	if got := eval[string](p, `document.querySelector('#error').hidden ? '' : document.querySelector('#error').textContent`); !strings.Contains(got, want) {
		p.t.Fatalf("the error %q was replaced by %q", want, got)
	}
	if s := eval[string](p, `document.querySelector('#status').textContent`); strings.Contains(s, "thinking") {
		p.t.Fatalf("status %q after a refused game", s)
	}
}

// TestBrowserErrorPaths walks the error paths of issue 31's defects, each
// at a desktop's size and a phone's.
func TestBrowserErrorPaths(t *testing.T) {
	slowBrowser(t)
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			p := newPageSized(t, Config{MaxSims: 5000}, sz.w, sz.h)
			// 2: errors from the URL stay.
			p.open("/?start=garbage")
			p.keepsError("start")
			p.open("/?rules=nosuchrules")
			p.keepsError("nosuchrules")
			p.open("/?south=alphabeta:depth=30")
			p.keepsError("depth")
			// 6: specs and the seed are checked at New game.
			p.open("/?south=human&north=human")
			wait[bool](p, `document.querySelectorAll('.pit.legal').length > 0`)
			for _, c := range []struct{ field, value, want string }{
				{"north", "nosuchagent", "nosuchagent"}, {"north", "mcts:sims=999999", "sims"},
				{"north", "mcts:bogus=1", "bogus"}, {"seed", "-3", "seed"},
			} {
				p.do(chromedp.SetValue(chromedp.ID("north"), "greedy"), chromedp.SetValue(chromedp.ID("seed"), "1"),
					chromedp.SetValue(chromedp.ID(c.field), c.value), chromedp.Click(chromedp.ID("new-game")))
				if got := p.errorText(); !strings.Contains(got, c.want) || strings.Contains(got, "{") {
					t.Fatalf("%s=%s: error %q", c.field, c.value, got)
				}
				if s := eval[string](p, `document.querySelector("#status").textContent`); strings.Contains(s, "thinking") {
					t.Fatalf("%s=%s: status %q", c.field, c.value, s)
				}
				eval[bool](p, `(showError(null), true)`)
			}
			// 13: two people are not "North: North".
			if got := eval[string](p, `document.querySelector('#players').textContent`); strings.Contains(got, "North: North") {
				t.Fatalf("players %q", got)
			}
			// 9: pits are labelled, the focus stays on the board after a
			// move, and ? opens the help.
			if n := eval[int](p, `[...document.querySelectorAll('.pit')].filter(b => !b.getAttribute('aria-label')).length`); n != 0 {
				t.Fatalf("%d pits without aria-label", n)
			}
			eval[bool](p, `(document.querySelector('.pit.legal').focus(), true)`)
			p.do(chromedp.KeyEvent("c"))
			wait[bool](p, `document.querySelector('#board').dataset.ply === '1' && document.body.dataset.busy === 'false'`)
			if !eval[bool](p, `document.activeElement.classList.contains('pit')`) {
				t.Fatal("the focus left the board after a move")
			}
			if got := eval[string](p, `(() => { const s = getComputedStyle(document.activeElement); return document.activeElement.matches(':focus-visible') + ' ' + s.outlineStyle + ' ' + s.outlineWidth; })()`); got != "true solid 3px" {
				t.Fatalf("the focused pit's ring: %q, want a visible 3 px outline", got)
			}
			p.do(chromedp.KeyEvent("?"))
			wait[bool](p, `document.querySelector('#help').open`)
			p.do(chromedp.Click(chromedp.ID("help-close")))
			// 1: no sideways scrolling, and a board that fills the width.
			if !eval[bool](p, `document.documentElement.scrollWidth <= window.innerWidth + 1 && document.querySelector('.store.south').getBoundingClientRect().right <= window.innerWidth`) {
				t.Fatalf("the page (or its board) is %d px wide in a %d px window", eval[int](p, `document.documentElement.scrollWidth`), sz.w)
			}
			if w := eval[float64](p, `document.querySelector('#board').getBoundingClientRect().width`); w < float64(min(sz.w, 700))*0.7 {
				t.Fatalf("the board is %.0f px wide in a %d px window", w, sz.w)
			}
			// 3, 10: a move at an earlier ply opens a variation: nothing is
			// dropped, the status says so, the notation is shown.
			p.do(chromedp.KeyEvent("d"))
			wait[bool](p, `document.querySelector('#board').dataset.ply === '2' && document.body.dataset.busy === 'false'`)
			p.do(chromedp.KeyEvent(kb.Home))
			wait[bool](p, `document.querySelector('#board').dataset.ply === '0'`)
			if s := eval[string](p, `document.querySelector('#status').textContent`); !strings.Contains(s, "variation") {
				t.Fatalf("status %q at an earlier ply", s)
			}
			if n := eval[string](p, `document.querySelector('#notation').value`); !strings.Contains(n, "/") {
				t.Fatalf("notation %q", n)
			}
			p.do(chromedp.KeyEvent("a"))
			wait[bool](p, `document.querySelector('#board').dataset.ply === '1' && document.querySelector('#moves .alts') !== null`)
			if got := eval[string](p, `mainLine().join(',')`); got != "2,3" {
				t.Fatalf("main line %s after a variation, want 2,3", got)
			}
			// Delete takes the variation out; Redo puts it back.
			p.do(chromedp.Click(chromedp.ID("delete-var")))
			wait[bool](p, `document.querySelector('#moves .alts') === null && S.req.moves.join(',') === '2,3'`)
			p.do(chromedp.Click(chromedp.ID("redo")))
			wait[bool](p, `document.querySelector('#moves .alts') !== null && S.req.moves[0] === 0`)
			// Links: the URL holds the line and the ply; Back goes back.
			wait[bool](p, `new URLSearchParams(location.search).get('moves') === '0' && new URLSearchParams(location.search).get('ply') === '1'`)
			p.do(chromedp.KeyEvent(kb.Home))
			wait[bool](p, `new URLSearchParams(location.search).get('ply') === '0'`)
			eval[bool](p, `(history.back(), true)`)
			wait[bool](p, `document.querySelector('#board').dataset.ply === '1'`)
			// 8: a single analysis names its spec; a refused one leaves no
			// old result under the error; random does not "analyse".
			p.do(chromedp.SetValue(chromedp.ID("an-spec"), "mcts:sims=100"), chromedp.Click(chromedp.ID("analyse")))
			wait[bool](p, `document.querySelector('#an-result').textContent.includes('analysis of this position by mcts:sims=')`)
			p.do(chromedp.Click(chromedp.ID("stop")))
			wait[bool](p, `!document.querySelector('#analyse').disabled`)
			p.do(chromedp.SetValue(chromedp.ID("an-spec"), "random"), chromedp.Click(chromedp.ID("analyse")))
			if got := p.errorText(); !strings.Contains(got, "does not search") {
				t.Fatalf("random analysed: %q", got)
			}
			wait[bool](p, `!document.querySelector('#analyse').disabled`)
			if eval[bool](p, `document.querySelector('#an-result').textContent.includes('analysis of this position')`) {
				t.Fatal("an old analysis stays under a new error")
			}
			// 11: the rules in play are named; choosing a preset drops a
			// chosen rules file.
			if got := eval[string](p, `document.querySelector('#players').textContent`); !strings.Contains(got, "rules: urim") {
				t.Fatalf("players %q do not name the rules", got)
			}
			file := filepath.Join(t.TempDir(), "r.yaml")
			os.WriteFile(file, []byte("preset: urim\nname: urim5\nseeds_per_pit: 5\n"), 0o644)
			p.do(chromedp.SetUploadFiles(chromedp.ID("rules-file"), []string{file}))
			wait[bool](p, `!document.querySelector('#rules-file-clear').hidden`)
			eval[bool](p, `(document.querySelector('#rules').value = 'urim7', document.querySelector('#rules').dispatchEvent(new Event('change')), true)`)
			if n := eval[int](p, `document.querySelector('#rules-file').files.length`); n != 0 {
				t.Fatal("the rules file still overrides the Rules list")
			}
			// 13: a bad path gets a page that links back.
			p.do(chromedp.Navigate(p.url + "/no/such/page"))
			if !eval[bool](p, `document.body.textContent.includes('Not found') && document.querySelector('a[href="/"]') !== null`) {
				t.Fatal("a bad path gets a bare 404")
			}
			p.screenshot("errors-" + sz.name)
		})
	}
}

// TestBrowserWatchUndoRedo: undo in a finished watched game takes back one
// ply (defect 4), redo puts it back, and the whole-game analysis's grades sit on the move
// that made them (defect 5).
func TestBrowserWatchUndoRedo(t *testing.T) {
	slowBrowser(t)
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			p := newPageSized(t, Config{}, sz.w, sz.h)
			p.open("/?south=greedy&north=random&speed=0&seed=4")
			wait[bool](p, `!document.querySelector('#result').hidden && document.body.dataset.busy === 'false'`)
			last := eval[int](p, `lastIndex()`)
			// 10: the texts agree with the board: a finished game says so,
			// and says that a move at an earlier ply opens a variation
			// only where a move can be made.
			if s := eval[string](p, `document.querySelector('#status').textContent`); s != "The game is over." {
				t.Fatalf("status %q at the end of a finished game", s)
			}
			p.do(chromedp.KeyEvent(kb.Home))
			wait[bool](p, `document.querySelector('#board').dataset.ply === '0'`)
			if s := eval[string](p, `document.querySelector('#status').textContent`); !strings.Contains(s, "opens a variation") || eval[int](p, `document.querySelectorAll('.pit.legal').length`) == 0 {
				t.Fatalf("status %q at ply 0 of a finished game, %d pits playable", s, eval[int](p, `document.querySelectorAll('.pit.legal').length`))
			}
			p.do(chromedp.KeyEvent(kb.End))
			wait[bool](p, fmt.Sprintf(`document.querySelector('#board').dataset.ply === '%d'`, last))
			p.do(chromedp.Click(chromedp.ID("undo")))
			wait[bool](p, fmt.Sprintf(`document.querySelector('#board').dataset.ply === '%d'`, last-1))
			p.do(chromedp.Click(chromedp.ID("redo")))
			wait[bool](p, fmt.Sprintf(`document.querySelector('#board').dataset.ply === '%d' && lastIndex() === %d`, last, last))
			p.do(chromedp.SetValue(chromedp.ID("an-spec"), "alphabeta:depth=4"), chromedp.Click(chromedp.ID("analyse-game")))
			wait[bool](p, `document.querySelector('#analyse-game-text').textContent.startsWith('done')`)
			graded := eval[[]int](p, `[...document.querySelectorAll('#moves li[data-grade]')].map(li => Number(li.dataset.ply))`)
			if len(graded) == 0 {
				t.Skip("no move graded in this game")
			}
			i := graded[0]
			eval[bool](p, fmt.Sprintf(`(document.querySelector('#moves li[data-ply="%d"]').click(), true)`, i))
			got := wait[string](p, `(document.querySelector('#move-grade') || {}).textContent || ''`)
			if !strings.HasPrefix(got, fmt.Sprintf("Move %d,", i)) {
				t.Fatalf("clicking move %d shows %q", i, got)
			}
			if !eval[bool](p, `document.querySelector('#grades').textContent.includes('South:')`) {
				t.Fatal("no mistake counts")
			}
			// The eval bar shows South's value at the position shown, and
			// hovering the graph names the ply and the value.
			if v := eval[string](p, `document.querySelector('#evalbar').dataset.value`); v == "" {
				t.Fatal("no value on the eval bar after the whole-game analysis")
			}
			eval[bool](p, `(document.querySelector('#graph').scrollIntoView({block: 'center'}), true)`)
			box, err := chromedp.Run(p.ctx, chromedp.Dimensions(chromedp.ID("graph")))
			if err != nil {
				t.Fatal(err)
			}
			q := box.Content
			p.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, q[0]+34+(q[2]-q[0]-42)/2, (q[1]+q[5])/2))
			if got := wait[string](p, `document.querySelector('#graph-tip').hidden ? '' : document.querySelector('#graph-tip').textContent`); !strings.HasPrefix(got, "ply ") || !strings.Contains(got, "South ") {
				t.Fatalf("graph hover %q", got)
			}
			// 3: a variation keeps the whole-game analysis: its plies are
			// shown where the lines agree, and all of them again on the
			// main line.
			points := eval[int](p, `Number(document.querySelector('#graph').dataset.points)`)
			p.do(chromedp.KeyEvent(kb.Home))
			for range 3 {
				p.do(chromedp.KeyEvent(kb.ArrowRight))
			}
			wait[bool](p, `document.querySelector('#board').dataset.ply === '3' && document.body.dataset.busy === 'false'`)
			other := eval[int](p, `pos().legal.find((a) => a !== S.req.moves[3]) ?? -1`)
			if other >= 0 {
				p.clickAt(fmt.Sprintf(`.pit.legal[data-pit="%d"]`, eval[int](p, `pos().player * P()`)+other))
				wait[bool](p, `document.querySelector('#board').dataset.ply === '4' && document.body.dataset.busy === 'false'`)
				if n := eval[int](p, `Number(document.querySelector('#graph').dataset.points)`); n < 4 {
					t.Fatalf("the variation shows %d plies of the whole-game analysis, want the 4 it shares", n)
				}
				eval[bool](p, `(document.querySelector('#moves .alts .alt').click(), true)`)
				wait[bool](p, fmt.Sprintf(`Number(document.querySelector('#graph').dataset.points) === %d && S.req.moves.join(',') === mainLine().join(',')`, points))
			}
			// 8: a deeper single analysis after the whole-game one is shown
			// in its place and kept in the record.
			p.do(chromedp.KeyEvent(kb.End))
			p.do(chromedp.KeyEvent(kb.ArrowLeft))
			wait[bool](p, fmt.Sprintf(`document.querySelector('#board').dataset.ply === '%d' && document.body.dataset.busy === 'false'`, last-1))
			p.do(chromedp.SetValue(chromedp.ID("an-spec"), "alphabeta:depth=6"), chromedp.Click(chromedp.ID("analyse")))
			wait[bool](p, `document.querySelector('#an-spec-shown').textContent.startsWith('analysis of this position by alphabeta:depth=')`)
			p.do(chromedp.Click(chromedp.ID("stop")))
			wait[bool](p, `!document.querySelector('#analyse').disabled`)
			if !eval[bool](p, `document.querySelector('#an-spec-shown').textContent.startsWith('analysis of this position by')`) {
				t.Fatal("the whole-game analysis replaced the deeper single one")
			}
			got, err = chromedp.Run(p.ctx, chromedp.Evaluate[string](`api('/api/record', recordRequest()).then((r) => (r.singles || []).map((x) => x.moves.length + ':' + x.spec).join(' '))`, chromedp.EvalAwaitPromise))
			if err != nil || !strings.Contains(got, fmt.Sprintf("%d:alphabeta:depth=", last-1)) {
				t.Fatalf("the record's single analyses %q (%v)", got, err)
			}
			p.screenshot("graded-" + sz.name)
		})
	}
}

// TestBrowserRunDashboard: the charts fill their cards and show values on
// hover; a new run appears without a reload (defect 12).
func TestBrowserRunDashboard(t *testing.T) {
	slowBrowser(t)
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			p := newPageSized(t, Config{}, sz.w, sz.h)
			p.open("/?south=human&north=human")
			p.do(chromedp.Click(chromedp.ID("tab-runs")))
			wait[bool](p, `document.querySelector('a[data-run]') !== null`)
			p.do(chromedp.Click(chromedp.CSS(`a[data-run]`)))
			wait[bool](p, `Number(document.querySelector('#chart-loss').dataset.points) > 0`)
			if !eval[bool](p, `(() => { const c = document.querySelector('#chart-loss'), f = c.parentElement; return c.getBoundingClientRect().width > f.getBoundingClientRect().width - 20; })()`) {
				t.Fatal("the chart does not fill its card")
			}
			if !eval[bool](p, `document.documentElement.scrollWidth <= window.innerWidth + 1`) {
				t.Fatal("the run page scrolls sideways")
			}
			eval[bool](p, `(document.querySelector('#chart-loss').scrollIntoView({block: 'center'}), true)`)
			box, err := chromedp.Run(p.ctx, chromedp.Dimensions(chromedp.ID("chart-loss")))
			if err != nil {
				t.Fatal(err)
			}
			q := box.Content
			p.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, (q[0]+q[2])/2, (q[1]+q[5])/2))
			if got := wait[string](p, `document.querySelector('#chart-tip').hidden ? '' : document.querySelector('#chart-tip').textContent`); !strings.Contains(got, "iteration") || !strings.Contains(got, "policy loss") {
				t.Fatalf("hover %q", got)
			}
			if !eval[bool](p, `!document.querySelector('#run-play').hidden`) {
				t.Fatal("no Play this network for a run with a best network")
			}
			// Sampled games show the iteration that played them, newest first.
			if got := eval[string](p, `[...document.querySelectorAll('#run-samples tbody td.iteration')].map((td) => td.textContent).join(',')`); got != "3,2,1" {
				t.Fatalf("sampled games' iterations %q, want 3,2,1", got)
			}
			if !eval[bool](p, `document.querySelector('#run-samples th').textContent === 'iteration'`) {
				t.Fatal("the sampled games' list does not head its iteration column")
			}
			dir := filepath.Join(testFixture(t).runs, "run-new-"+sz.name)
			os.MkdirAll(dir, 0o755)
			t.Cleanup(func() { os.RemoveAll(dir) })
			os.WriteFile(filepath.Join(dir, "config.yaml"), []byte("name: x\n"), 0o644)
			wait[bool](p, fmt.Sprintf(`[...document.querySelectorAll('a[data-run]')].some(a => a.textContent === %q)`, filepath.Base(dir)))
			p.screenshot("run-" + sz.name)
		})
	}
}

// TestBrowserPasteAndTeach pastes a game as moves, then as notation, and
// asks for a hint.
func TestBrowserPasteAndTeach(t *testing.T) {
	slowBrowser(t)
	p := newPageSized(t, Config{}, 390, 844)
	p.open("/?south=human&north=human")
	wait[bool](p, `document.querySelectorAll('.pit.legal').length > 0`)
	p.do(chromedp.SetValue(chromedp.ID("paste"), "1. c 2. D 3. a"), chromedp.Click(chromedp.ID("paste-load")))
	wait[bool](p, `S.req.moves.join(',') === '2,3,0' && document.querySelector('#board').dataset.ply === '3'`)
	p.do(chromedp.SetValue(chromedp.ID("paste"), "2,0,3,1,0,4/0,2,1,3,0,1 10-9 S 30"), chromedp.Click(chromedp.ID("paste-load")))
	wait[bool](p, `S.req.start !== '' && document.querySelector('#notation').value.startsWith('2,0,3,1,0,4/0,2,1,3,0,1')`)
	p.do(chromedp.SetValue(chromedp.ID("paste"), "c zz"), chromedp.Click(chromedp.ID("paste-load")))
	if got := p.errorText(); !strings.Contains(got, "zz") {
		t.Fatalf("a bad paste: %q", got)
	}
	p.do(chromedp.SetValue(chromedp.ID("an-spec"), "mcts:sims=200"), chromedp.Click(chromedp.ID("hint")))
	wait[bool](p, `document.querySelector('.pit.hinted') !== null`)
	p.screenshot("hint")
}

// waitShort is wait with a 20 s limit, for what shows at once.
func waitShort(p *page, expr string) string {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Poll[string](expr, chromedp.WithPollingInterval(30*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil {
		p.t.Fatalf("waiting for %s: %v", expr, err)
	}
	return v
}
