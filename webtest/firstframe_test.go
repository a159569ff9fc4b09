package webtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// atFirstFrame keeps, when the page sets its firstFrame mark (xterm has
// parsed the first frame, which Go writes in one write, and drawn it), what
// every screen row shows cell by cell (cellsJS) and how many frames Go had
// written by lines.
const atFirstFrame = `(() => {
  let marks;
  Object.defineProperty(window, '__t', { configurable: true, get() { return marks; }, set(o) {
    marks = new Proxy(o, { set(target, k, v) {
      target[k] = v;
      if (k === 'firstFrame') window.__first = { Rows: ` + cellsJS + `, Written: window.goFramesWritten() };
      return true;
    } });
  } });
})()`

// TestFirstFrameWrittenAsRepainted: the browser build writes the first
// frame by its lines onto the alternate screen Bubble Tea has just entered
// and erased (build/wasm-shim: DrawFramesWith, flushFirst), not through
// the renderer's cells; xterm.js then shows, cell by cell (every cell's
// characters, width, colours and attributes; of a blank, what shows: see
// cellsJS), what the renderer's whole repaint of the same frame gives, in
// English and Chinese at two window sizes; and a key's frame after it,
// and a frame at another size, are as their repaints too.
func TestFirstFrameWrittenAsRepainted(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		for _, size := range [][2]int{{1280, 800}, {800, 600}} {
			t.Run(fmt.Sprintf("%s-%dx%d", lang, size[0], size[1]), func(t *testing.T) {
				firstFrameAsRepainted(t, lang, size[0], size[1])
			})
		}
	}
}

func firstFrameAsRepainted(t *testing.T, lang string, w, h int) {
	p, words := langPage(t, lang, w, h)
	srv := serve(t, site(t))
	if _, err := chromedp.Call(p.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: atFirstFrame}); err != nil {
		t.Fatal(err)
	}
	p.load(srv.URL)
	type first struct {
		Rows    []string
		Written int
	}
	f := eval[first](p, `window.__first`)
	if f.Written != 1 {
		t.Fatalf("%d frames written by lines at the first frame, want 1 (the first)", f.Written)
	}
	settle := func() {
		p.do(chromedp.Evaluate[chromedp.Void](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`, chromedp.EvalAwaitPromise))
	}
	cols, rows := eval[int](p, `term.cols`), eval[int](p, `term.rows`)
	// repainted has the renderer draw the frame whole at cols×rows (after
	// one at another width), and returns the screen's rows.
	repainted := func(cols, rows int) []string {
		t.Helper()
		n := eval[int](p, fmt.Sprintf(`window.goTermResize(%d, %d); window.goFlush(); window.goTermResize(%d, %d); window.goFlush(); window.goFramesWritten()`, cols-1, rows, cols, rows))
		settle()
		if got := eval[int](p, `window.goFramesWritten()`); got != n {
			t.Fatalf("a frame was written by lines after the repaint")
		}
		return eval[[]string](p, cellsJS)
	}
	same := func(what string, got, want []string) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows, the repaint %d", what, len(got), len(want))
		}
		for y := range want {
			if got[y] != want[y] {
				g, w := strings.Split(got[y], ";"), strings.Split(want[y], ";")
				for x := range min(len(g), len(w)) {
					if g[x] != w[x] {
						t.Errorf("%s: row %d, column %d: %q, repainted whole %q", what, y, x, g[x], w[x])
						break
					}
				}
			}
		}
	}
	same("the first frame", f.Rows, repainted(cols, rows))

	// A key's frame after the repaint, written by lines, and its repaint.
	p.command("delete deploy/web --cascade=foreground")
	p.waitText("Deployment/web terminating")
	step := p.stepNumber(words)
	p.press("s")
	p.waitText(fmt.Sprintf(words.step, step+1))
	settle()
	byLines := eval[[]string](p, cellsJS)
	if eval[int](p, `window.goFramesWritten()`) < 2 {
		t.Errorf("no frame after the first was written by lines")
	}
	same("a key's frame", byLines, repainted(cols, rows))

	// A smaller terminal: the renderer draws the frame whole; its cells
	// are those of the repaint at that size.
	p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.goTermResize(%d, %d); window.goFlush()`, cols-7, rows-3)))
	settle()
	smaller := eval[[]string](p, cellsJS)
	same("a resized frame", smaller, repainted(cols-7, rows-3))
	if slices.Equal(smaller, byLines) {
		t.Errorf("the resize changed nothing on the screen")
	}
	p.checkExceptions()
}
