package webtest

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// rowsAsBuiltJS compares what each row element of xterm.js's DOM renderer
// shows with the spans xterm's own row factory builds for that row of the
// buffer now, with the arguments xterm's renderRows gives it, and returns
// the rows that differ (and how many rows it compared). What a row shows
// is its spans' text in their attributes (class, style), runs of equal
// attributes joined, without the blanks in the default colors at its end:
// a row drawn while the hidden cursor sat on it has its spans split at the
// cursor's column and blanks up to it, which show nothing (main's page
// keeps such rows too: it redraws a row when its cells change).
const rowsAsBuiltJS = `(() => {
  const core = term._core, r = core._renderService._renderer.value, buf = core.buffer;
  const cursorRow = buf.ybase + buf.y, cursorX = Math.min(buf.x, r._bufferService.cols - 1);
  const blink = r._coreService.decPrivateModes.cursorBlink ?? r._optionsService.rawOptions.cursorBlink;
  const style = r._coreService.decPrivateModes.cursorStyle ?? r._optionsService.rawOptions.cursorStyle;
  const inactive = r._optionsService.rawOptions.cursorInactiveStyle;
  const shown = (nodes) => {
    const runs = [];
    for (const n of nodes) {
      const attrs = n.nodeName + ' ' + (n.attributes ? [...n.attributes].map((a) => a.name + '=' + a.value).sort().join(' ') : '');
      const last = runs[runs.length - 1];
      if (last && last[0] === attrs) last[1] += n.textContent;
      else runs.push([attrs, n.textContent]);
    }
    while (runs.length && /^SPAN (style=letter-spacing: [^;]*;)?$/.test(runs[runs.length - 1][0]) && runs[runs.length - 1][1].trim() === '') runs.pop();
    return JSON.stringify(runs);
  };
  const bad = [];
  for (let y = 0; y < term.rows; y++) {
    const c = y + buf.ydisp, el = r._rowElements[y];
    const built = r._rowFactory.createRow(buf.lines.get(c), c, c === cursorRow, style, inactive, cursorX, blink, r.dimensions.css.cell.width, r._widthCache, -1, -1);
    const want = shown(built), got = el ? shown(el.childNodes) : '(no element)';
    if (got !== want) bad.push({ Row: y, Shown: got, Built: want });
  }
  return { Bad: bad, Rows: term.rows };
})()`

// TestKeyRowsAsXtermDrawsThem: after each key of a session (a command
// typed, steps, steps back, the panes, six keys faster than the display's
// frames, help, a resize, a lesson), every row element shows what
// xterm.js's row factory builds for its row of the buffer, on the English
// and the Chinese page: the page's drawing (changed rows only, built ahead
// in the key's task, the spans that stay kept) shows what xterm's renderer
// alone would.
func TestKeyRowsAsXtermDrawsThem(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			p, words := langPage(t, lang, 1280, 800)
			srv := serve(t, site(t))
			p.load(srv.URL)
			if !eval[bool](p, `window.__t.rowsOnly`) {
				t.Fatalf("the page does not draw changed rows only: xterm.js's renderer is not the shape it reaches into")
			}
			settle := func() {
				p.do(chromedp.Evaluate[chromedp.Void](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`, chromedp.EvalAwaitPromise))
			}
			checks := 0
			check := func(what string) {
				t.Helper()
				settle()
				type bad struct {
					Row          int
					Shown, Built string
				}
				got := eval[struct {
					Bad  []bad
					Rows int
				}](p, rowsAsBuiltJS)
				if got.Rows == 0 {
					t.Fatalf("%s: no rows", what)
				}
				for _, b := range got.Bad {
					t.Errorf("%s: row %d shows\n%s\nxterm builds\n%s", what, b.Row, b.Shown, b.Built)
				}
				checks++
			}
			keys := func(expect string, ks ...string) {
				t.Helper()
				for _, k := range ks {
					p.press(k)
					if expect != "" {
						p.waitText(expect)
					}
					check(k)
				}
			}
			check("the first frame")
			p.press(":")
			for _, r := range "delete deploy/web --cascade=foreground" {
				keys("", string(r))
			}
			p.press("Enter")
			p.waitText("Deployment/web terminating")
			check("the delete")
			first := p.stepNumber(words)
			for i := 1; i <= 6; i++ {
				keys(fmt.Sprintf(words.step, first+i), "s")
			}
			for i := 1; i <= 4; i++ {
				keys(fmt.Sprintf(words.rewound, first+6-i, first+6), "ArrowLeft")
			}
			keys("", "ArrowDown", "ArrowDown", "ArrowUp", "s", "Tab", "ArrowDown", "ArrowDown", "s", "Tab", "ArrowDown", "ArrowLeft", "Tab", "Tab")
			// Keys faster than the display's frames: several keys' rows
			// built ahead before one animation frame draws them.
			// (Each key's frame is written in the key's task.)
			p.press("s", "s", "s", "ArrowLeft", "s", "s")
			time.Sleep(300 * time.Millisecond)
			check("six keys at once")
			keys(words.help, "?")
			p.press("Escape")
			p.waitJS(fmt.Sprintf(`!window.bufferText().includes(%q)`, words.help), 5*time.Second)
			check("Escape")
			cols := eval[int](p, `term.cols`)
			p.do(chromedp.EmulateViewport(1100, 700))
			p.waitJS(fmt.Sprintf(`term.cols < %d`, cols), 10*time.Second)
			p.waitJS(`(() => { const l = window.bufferText().split('\n'); return l[l.length-1].trim() !== '' })()`, 10*time.Second)
			time.Sleep(300 * time.Millisecond)
			check("after a resize")
			keys("", "ArrowRight", "s", "ArrowLeft")
			p.do(chromedp.Evaluate[chromedp.Void](`location.hash = '#lesson=owners-and-dependents'`))
			p.waitText(words.lesson1)
			check("lesson 1")
			keys("", "Enter", "s", "s", "ArrowLeft", "ArrowDown", "ArrowUp")
			ahead := eval[int](p, `window.__t.rowsAhead || 0`)
			if ahead == 0 {
				t.Errorf("no row was drawn from spans built ahead in a key's task: the test compared only rows xterm drew")
			}
			t.Logf("%d screens compared row by row; %d rows were drawn from spans built ahead", checks, ahead)
			p.checkExceptions()
		})
	}
}
