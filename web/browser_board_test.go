package web

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The analysis-board tests of issue 31 that the error-path tests leave:
// touch, the engine's top moves, exact grades, the replay list's width,
// links and copying, and the teaching mode. Each runs at a desktop's size
// and a phone's where the layout matters, and fails on any exception.

// center returns the middle of the first element matching css, waiting for
// it.
func (p *page) center(css string) (x, y float64) {
	p.t.Helper()
	xy := wait[[]float64](p, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return null; e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, css))
	return xy[0], xy[1]
}

// tap taps the middle of the first element matching css with a finger.
func (p *page) tap(css string) {
	p.t.Helper()
	x, y := p.center(css)
	p.do(chromedp.TapXY(x, y))
}

// ply waits for the board to show position n with nothing under way.
func (p *page) ply(n int) {
	p.t.Helper()
	wait[bool](p, fmt.Sprintf(`document.querySelector('#board').dataset.ply === '%d' && document.body.dataset.busy === 'false'`, n))
}

// TestBrowserTouchSow plays by tapping on a phone (390×844, touch and mobile
// emulated): a tap on a pit that cannot be played does nothing, a tap on a
// legal pit sows it, and the move list and the step buttons answer taps.
func TestBrowserTouchSow(t *testing.T) {
	slowBrowser(t)
	p := newPageSized(t, Config{}, 390, 844)
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2)))
	p.open("/?south=human&north=random&seed=3&speed=0.4")
	wait[bool](p, `document.querySelectorAll('.pit.legal').length > 0`)
	if !eval[bool](p, `matchMedia('(pointer: coarse)').matches || 'ontouchstart' in window`) {
		t.Fatal("touch is not emulated")
	}
	// Pits are big enough to tap, and the board fits the phone.
	if w := eval[float64](p, `Math.min(...[...document.querySelectorAll('.pit')].map((b) => b.getBoundingClientRect().width))`); w < 32 {
		t.Fatalf("pits %.0f px wide: too small to tap", w)
	}
	if !eval[bool](p, `document.documentElement.scrollWidth <= window.innerWidth + 1`) {
		t.Fatal("the page scrolls sideways on a phone")
	}
	p.tap(`.row.north .pit`)
	p.ply(0)
	p.tap(`.pit.legal[data-pit="2"]`)
	wait[bool](p, `document.querySelector('.pit.sowing') !== null`)
	p.screenshot("touch-sowing")
	p.ply(2)
	wait[bool](p, `document.querySelectorAll('.pit.legal').length > 0`)
	if got := eval[int](p, `S.req.moves[0]`); got != 2 {
		t.Fatalf("the tap on c played %d", got)
	}
	p.tap(`#moves li[data-ply="1"]`)
	p.ply(1)
	p.tap(`#next`)
	p.ply(2)
	p.screenshot("touch")
}

// TestBrowserTopMoves: a single analysis lists the engine's top moves, each
// with its own value and visits, deepens round by round while the person
// waits and stops on Stop; alpha-beta lists every move with its value, and a
// click on a line plays its move.
func TestBrowserTopMoves(t *testing.T) {
	slowBrowser(t)
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			p := newPageSized(t, Config{}, sz.w, sz.h)
			p.open("/?south=human&north=human")
			wait[bool](p, `document.querySelectorAll('.pit.legal').length > 0`)
			p.do(chromedp.SetValue(chromedp.ID("an-spec"), "mcts:sims=100"), chromedp.Click(chromedp.ID("analyse")))
			wait[bool](p, `document.querySelectorAll('#top-moves tr[data-action]').length >= 2`)
			// Deeper rounds replace the answer while it runs.
			wait[bool](p, `Number(document.querySelector('#deepen-text').dataset.rounds) >= 2`)
			p.do(chromedp.Click(chromedp.ID("stop")))
			wait[bool](p, `!document.querySelector('#analyse').disabled`)
			if got := eval[string](p, `document.querySelector('#deepen-text').textContent`); !strings.HasPrefix(got, "stopped after ") && !strings.HasPrefix(got, "done: ") {
				t.Fatalf("after Stop: %q", got)
			}
			shown := eval[string](p, `document.querySelector('#an-spec-shown').textContent`)
			if sims := eval[int](p, `Number((document.querySelector('#an-spec-shown').textContent.match(/sims=(\d+)/) || [0, 0])[1])`); sims < 200 {
				t.Fatalf("the answer shown (%q) is not a deeper round's", shown)
			}
			// The first line is the move played, with the value shown above;
			// every line has its visits and a line of moves.
			if !eval[bool](p, `(() => {
				const rows = [...document.querySelectorAll('#top-moves tr[data-action]')];
				const value = document.querySelector('tr[data-k=value] td:nth-child(2)').textContent.split(' (')[0];
				const best = document.querySelector('tr[data-k=best] td:nth-child(2)').textContent.split(' ')[0];
				return rows[0].querySelector('td.val').textContent === value && rows[0].querySelector('td.mv').textContent === best &&
					rows.every((r) => /^\d+ \(\d+%\)$/.test(r.children[3].textContent) && r.querySelector('td.line').textContent.length > 0);
			})()`) {
				t.Fatalf("top moves %q", eval[string](p, `document.querySelector('#top-moves').textContent`))
			}
			if !eval[bool](p, `document.documentElement.scrollWidth <= window.innerWidth + 1`) {
				t.Fatal("the top moves make the page scroll sideways")
			}
			p.screenshot("top-moves-" + sz.name)
			// Alpha-beta: every legal move with its own value, best first.
			p.do(chromedp.SetValue(chromedp.ID("an-spec"), "alphabeta:depth=2"), chromedp.Click(chromedp.ID("analyse")))
			wait[bool](p, `(document.querySelector('#an-spec-shown') || {textContent: ''}).textContent.includes('alphabeta') && document.querySelectorAll('#top-moves tr[data-action]').length === pos().legal.length`)
			wait[bool](p, `!document.querySelector('#analyse').disabled`)
			a := eval[int](p, `Number(document.querySelectorAll('#top-moves tr[data-action]')[1].dataset.action)`)
			p.do(chromedp.Click(chromedp.CSS(`#top-moves tr[data-action]:nth-child(3)`)))
			p.ply(1)
			if got := eval[int](p, `S.req.moves[0]`); got != a {
				t.Fatalf("a click on the line of %d played %d", a, got)
			}
		})
	}
}

// TestBrowserExactGrades grades moves by the endgame table's stored
// best-move sets: a move that throws the win away is an exact blunder with
// the seeds it lost and the best move, one the table bounds is graded at
// least, the best move is best; and the table panel counts the seeds the
// board shows (defect 10).
func TestBrowserExactGrades(t *testing.T) {
	slowBrowser(t)
	tb := storedTable(t)
	// South to move, 15-15: a wins all 6 seeds on the board; b and f give
	// them all away (the result turns); c keeps 2 to 4 (the table's bounds).
	start := "1,1,1,0,0,1/0,1,0,0,0,1 15-15 S 20"
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			p := newPageSized(t, Config{Tablebase: tb}, sz.w, sz.h)
			p.open("/?south=human&north=human&speed=0&start=" + url.QueryEscape(start))
			wait[bool](p, `document.querySelector('#tb-result').dataset.best === '0'`)
			p.tableAgreesWithBoard()
			if got := eval[string](p, `document.querySelector('#tb-result').textContent`); !strings.Contains(got, "stored best-move set") {
				t.Fatalf("table panel %q", got)
			}
			for _, c := range []struct{ key, mark, want string }{
				{"b", "??", "blunder: it changes the result (exact: the table's stored best moves), 6 seeds lost; best was a"},
				{"c", "?!", "at least 2 seeds lost; best was a"},
				{"a", "", "best (exact: the table's stored best moves)"},
			} {
				p.do(chromedp.KeyEvent(kb.Home))
				p.ply(0)
				p.do(chromedp.KeyEvent(c.key))
				p.ply(1)
				got := wait[string](p, `(document.querySelector('#move-grade') || {}).textContent || ''`)
				if !strings.Contains(got, c.want) || !strings.HasPrefix(got, "Move 1, "+c.key+c.mark+":") {
					t.Fatalf("%s: grade %q, want %q", c.key, got, c.want)
				}
				if mark := eval[string](p, `document.querySelector('#moves li[data-ply="1"]').dataset.grade || ''`); mark != c.mark {
					t.Fatalf("%s: move list mark %q, want %q", c.key, mark, c.mark)
				}
				p.tableAgreesWithBoard()
			}
			if got := eval[string](p, `document.querySelector('#grades').textContent`); !strings.Contains(got, "South: 0 blunders") {
				// The line shown is a's: nothing to count on it.
				t.Fatalf("counts %q on the line of a", got)
			}
			p.screenshot("exact-" + sz.name)
		})
	}
}

// tableAgreesWithBoard checks that the table panel's figures are the
// board's: the seeds still on the board and the mover's store (defect 10:
// the panel counted seeds the board did not show).
func (p *page) tableAgreesWithBoard() {
	p.t.Helper()
	if wait[string](p, `pos().terminal ? 'over' : (document.querySelector('#tb-result').dataset.seeds !== undefined ? 'covered' : '')`) == "over" {
		return
	}
	ok := eval[bool](p, `(() => {
		const box = document.querySelector('#tb-result');
		const pits = [...document.querySelectorAll('#board .pit')].reduce((n, b) => n + Number(b.dataset.count), 0);
		const who = pos().player === 0 ? 'South' : 'North';
		const store = Number(document.querySelector('#board .store[data-store="' + who + '"] .count').textContent);
		return Number(box.dataset.seeds) === pits && Number(box.dataset.store) === store &&
			box.textContent.includes('the ' + store + ' in store now') && box.textContent.includes('of the ' + pits + ' still on the board');
	})()`)
	if !ok {
		p.t.Fatalf("the table panel %q disagrees with the board", eval[string](p, `document.querySelector('#tb-result').textContent`))
	}
}

// TestBrowserReplayListWidth: long player names wrap inside the replay
// list at 1280 px and on a phone, instead of running onto the board
// (defect 7).
func TestBrowserReplayListWidth(t *testing.T) {
	slowBrowser(t)
	for _, sz := range []struct {
		name string
		w, h int
	}{{"1280", 1280, 900}, {"phone", 390, 844}} {
		t.Run(sz.name, func(t *testing.T) {
			p := newPageSized(t, Config{}, sz.w, sz.h)
			p.open("/?south=human&north=human")
			p.do(chromedp.Click(chromedp.ID("tab-replay")))
			wait[bool](p, `document.querySelectorAll('#source option').length > 0`)
			p.do(chromedp.SetValue(chromedp.ID("source"), "data0/long/games.jsonl"), chromedp.Click(chromedp.ID("f-apply")))
			wait[bool](p, `(document.querySelector('#game-list tbody').dataset.query || '').startsWith('source=data0%2Flong') && document.querySelectorAll('#game-list tbody tr').length === 2`)
			if !eval[bool](p, `(() => {
				const side = document.querySelector('#side').getBoundingClientRect();
				const wrap = document.querySelector('#game-list').parentElement;
				const cells = [...document.querySelectorAll('#game-list td, #game-list th')];
				return cells.every((c) => c.getBoundingClientRect().right <= side.right + 1) && wrap.scrollWidth <= wrap.clientWidth + 1 &&
					document.documentElement.scrollWidth <= window.innerWidth + 1;
			})()`) {
				t.Fatalf("the replay list is %.0f px wide in a side panel of %.0f px", eval[float64](p, `document.querySelector('#game-list').getBoundingClientRect().width`),
					eval[float64](p, `document.querySelector('#side').getBoundingClientRect().width`))
			}
			if sz.w > 900 && !eval[bool](p, `document.querySelector('#game-list').getBoundingClientRect().right <= document.querySelector('#game-area').getBoundingClientRect().left`) {
				t.Fatal("the replay list runs onto the board")
			}
			p.screenshot("replay-list-" + sz.name)
		})
	}
}

// TestBrowserLinksAndCopy: the URL holds the game and the ply; Back and
// Forward step through what was shown, across games too; a copied link
// (and a reload) opens the same position, a variation included; Copy
// copies the notation.
func TestBrowserLinksAndCopy(t *testing.T) {
	slowBrowser(t)
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			p := newPageSized(t, Config{}, sz.w, sz.h)
			for _, perm := range []string{"clipboard-read", "clipboard-write"} {
				if _, err := chromedp.CallBrowser(p.ctx, browser.SetPermission, browser.SetPermissionParams{
					Permission: &browser.PermissionDescriptor{Name: perm}, Setting: browser.PermissionSettingGranted, Origin: p.url}); err != nil {
					t.Fatal(err)
				}
			}
			src := "data0/tourney/games.jsonl"
			p.open("/?source=" + url.QueryEscape(src) + "&n=1&ply=0")
			wait[bool](p, `document.body.dataset.mode === 'replay' && S.source && S.source.n === 1`)
			p.ply(0)
			for i := 1; i <= 3; i++ {
				p.do(chromedp.KeyEvent(kb.ArrowRight))
				p.ply(i)
			}
			wait[bool](p, `new URLSearchParams(location.search).get('ply') === '3'`)
			eval[bool](p, `(history.back(), true)`)
			p.ply(2)
			eval[bool](p, `(history.back(), true)`)
			p.ply(1)
			eval[bool](p, `(history.forward(), true)`)
			p.ply(2)
			eval[bool](p, `(history.forward(), true)`)
			p.ply(3)
			// Copy: the notation, then the link.
			p.do(chromedp.Click(chromedp.ID("copy-notation")))
			wait[bool](p, `document.querySelector('#status').textContent === 'the notation copied'`)
			clip := func() string {
				v, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			if got, want := clip(), eval[string](p, `pos().notation`); got != want || !strings.Contains(got, "/") {
				t.Fatalf("copied %q, the position is %q", got, want)
			}
			p.do(chromedp.Click(chromedp.ID("copy-link")))
			wait[bool](p, `document.querySelector('#status').textContent === 'the link copied'`)
			link := clip()
			if link != eval[string](p, `location.href`) || !strings.Contains(link, "ply=3") {
				t.Fatalf("copied link %q", link)
			}
			notation := eval[string](p, `pos().notation`)
			p.do(chromedp.Navigate(link))
			wait[bool](p, `S.view !== null && S.source && S.source.n === 1`)
			p.ply(3)
			if got := eval[string](p, `pos().notation`); got != notation {
				t.Fatalf("the link opens %q, it was copied at %q", got, notation)
			}
			// A variation's link opens the variation, the main line kept.
			main := eval[string](p, `mainLine().join(',')`)
			other := eval[int](p, `pos().legal.find((a) => a !== S.req.moves[S.cur])`)
			p.clickAt(fmt.Sprintf(`.pit.legal[data-pit="%d"]`, eval[int](p, `pos().player * P()`)+other))
			p.ply(4)
			wait[bool](p, `new URLSearchParams(location.search).get('moves') !== null && new URLSearchParams(location.search).get('ply') === '4'`)
			line := eval[string](p, `S.req.moves.join(',')`)
			p.do(chromedp.Navigate(eval[string](p, `location.href`)))
			wait[bool](p, `S.view !== null && S.source && S.source.n === 1`)
			p.ply(4)
			if got := eval[string](p, `S.req.moves.join(',') + ' ' + mainLine().join(',')`); got != line+" "+main {
				t.Fatalf("the variation's link shows %q, want %q", got, line+" "+main)
			}
			// Back across games: another game from the list, then Back.
			p.do(chromedp.Click(chromedp.ID("tab-replay")))
			p.do(chromedp.SetValue(chromedp.ID("source"), src), chromedp.Click(chromedp.ID("f-apply")))
			wait[bool](p, `(document.querySelector('#game-list tbody').dataset.query || '').startsWith('source=data0%2Ftourney%2Fgames.jsonl&') && document.querySelectorAll('#game-list tbody tr').length > 3`)
			eval[bool](p, `(document.querySelector('#game-list tbody tr:nth-child(4)').click(), true)`)
			wait[bool](p, `S.source && S.source.n === 3 && new URLSearchParams(location.search).get('n') === '3'`)
			eval[bool](p, `(history.back(), true)`)
			wait[bool](p, `S.source && S.source.n === 1`)
			p.ply(4)
			p.screenshot("links-" + sz.name)
		})
	}
}

// TestBrowserTeachTakeback: in the teaching mode a mistake is graded at
// once and a takeback offered; taking it back leaves the position before
// the move (Redo puts it back), and the best move draws no offer.
func TestBrowserTeachTakeback(t *testing.T) {
	slowBrowser(t)
	// South to move: f's chain capture wins, e loses the race (the MCTS
	// tests' tactic).
	start := "0,0,0,0,1,3/0,2,1,0,0,0 15-14 S 20"
	for _, sz := range sizes {
		t.Run(sz.name, func(t *testing.T) {
			p := newPageSized(t, Config{}, sz.w, sz.h)
			p.open("/?south=human&north=greedy&speed=0")
			wait[bool](p, `document.querySelectorAll('.pit.legal').length > 0`)
			p.do(chromedp.SetValue(chromedp.ID("start"), start), chromedp.SetValue(chromedp.ID("an-spec"), "alphabeta:depth=10"))
			if !eval[bool](p, `document.querySelector('#teach').checked`) {
				p.do(chromedp.Click(chromedp.ID("teach")))
			}
			p.do(chromedp.Click(chromedp.ID("new-game")))
			wait[bool](p, `S.teach && S.req.start !== '' && document.querySelectorAll('.pit.legal').length > 0`)
			p.ply(0)
			p.do(chromedp.KeyEvent("e"))
			got := wait[string](p, `document.querySelector('#offer').hidden ? '' : document.querySelector('#offer').textContent`)
			if !strings.Contains(got, "the best was f") || !strings.Contains(got, "Take it back") {
				t.Fatalf("offer %q", got)
			}
			p.screenshot("offer-" + sz.name)
			p.do(chromedp.Click(chromedp.ID("takeback")))
			wait[bool](p, `document.querySelector('#offer').hidden && S.req.moves.length === 0 && !document.querySelector('#redo').disabled`)
			p.ply(0)
			p.do(chromedp.KeyEvent("f"))
			// Both positions analysed, and no offer for the best move.
			wait[bool](p, `S.singles['5'] !== undefined && S.singles[''] !== undefined`)
			wait[bool](p, `document.body.dataset.busy === 'false'`)
			if !eval[bool](p, `document.querySelector('#offer').hidden`) {
				t.Fatalf("an offer after the best move: %q", eval[string](p, `document.querySelector('#offer').textContent`))
			}
		})
	}
}

// TestBrowserPlayNetwork plays the shipped network in the teaching mode
// from "Play a network" (its hints by the same network), and "Play this
// network" on a run page whose best network is broken says so at once.
func TestBrowserPlayNetwork(t *testing.T) {
	slowBrowser(t)
	p := newPageSized(t, Config{Models: PathList{"../models"}}, 390, 844)
	p.open("/")
	wait[bool](p, `[...document.querySelectorAll('#network option')].some((o) => o.value === 'models0/urim-az.ckpt')`)
	p.do(chromedp.SetValue(chromedp.ID("network"), "models0/urim-az.ckpt"), chromedp.Click(chromedp.ID("play-network")))
	wait[bool](p, `S.players[1] === 'az:ckpt=models0/urim-az.ckpt,sims=200' && S.teach && document.querySelectorAll('.pit.legal').length > 0`)
	if got := eval[string](p, `document.querySelector('#an-spec').value`); got != "az:ckpt=models0/urim-az.ckpt,sims=400" {
		t.Fatalf("hints by %q", got)
	}
	p.clickAt(`.pit.legal`)
	wait[bool](p, `document.querySelector('#board').dataset.ply === '2' && document.querySelectorAll('.pit.legal').length > 0`)
	p.do(chromedp.KeyEvent("h"))
	wait[bool](p, `document.querySelector('.pit.hinted') !== null`)
	p.screenshot("network")
	p.do(chromedp.Click(chromedp.ID("tab-runs")))
	p.do(chromedp.Click(chromedp.CSS(`a[data-run]`)))
	wait[bool](p, `!document.querySelector('#run-play').hidden`)
	p.do(chromedp.Click(chromedp.ID("run-play")))
	if got := p.errorText(); !strings.Contains(got, "North") || !strings.Contains(got, "best.ckpt") {
		t.Fatalf("a broken run network: %q", got)
	}
	if s := eval[string](p, `document.querySelector('#status').textContent`); strings.Contains(s, "thinking") {
		t.Fatalf("status %q", s)
	}
}
