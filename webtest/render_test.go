package webtest

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// rowsJS is what each screen row holds, cell by cell (characters, colours
// and attributes, through xterm's public buffer API), and what its element
// in the page shows: the page draws a row when, and only when, these change.
// The text's trailing blanks go (written spaces and erased cells alike).
const rowsJS = `(() => {
	const b = term.buffer.active, cell = b.getNullCell(), held = [], shown = [];
	const els = document.querySelectorAll('.xterm-rows > div');
	for (let y = 0; y < term.rows; y++) {
		const line = b.getLine(b.viewportY + y);
		let s = '';
		for (let x = 0; x < term.cols; x++) {
			line.getCell(x, cell);
			s += [cell.getChars(), cell.getWidth(), cell.getFgColorMode(), cell.getFgColor(), cell.getBgColorMode(), cell.getBgColor(),
				cell.isBold(), cell.isItalic(), cell.isDim(), cell.isUnderline(), cell.isInverse(), cell.isInvisible(), cell.isStrikethrough()].join(',') + ';';
		}
		held.push(s);
		shown.push([line.translateToString(true).trimEnd(), (els[y]?.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd()]);
	}
	return { Held: held, Shown: shown };
})()`

type screenRows struct {
	Held  []string
	Shown [][2]string
}

// TestKeyRedrawsChangedRows: a key's frame rebuilds the elements of the
// rows it changed, not of every row between the first and the last (xterm's
// DOM renderer alone rebuilds the whole screen for a frame that changes the
// status line and the key bar), and what each row shows is what the
// terminal holds, after steps, steps back (whose frames scroll a region)
// and a resize.
func TestKeyRedrawsChangedRows(t *testing.T) {
	p := newPage(t, 1280, 800)
	srv := serve(t, site(t))
	p.load(srv.URL)
	p.command("delete deploy/web --cascade=foreground")
	p.waitText("Deployment/web terminating")
	// Which row elements a frame rebuilds: xterm replaces a row's children.
	p.do(chromedp.Evaluate[chromedp.Void](`window.__rebuilt = new Set();
		new MutationObserver((ms) => { for (const m of ms) { const row = m.target.closest?.('.xterm-rows > div');
			if (row) window.__rebuilt.add([...row.parentNode.children].indexOf(row)); } })
			.observe(document.querySelector('.xterm-rows'), { childList: true, subtree: true, characterData: true })`))
	settle := func() {
		// Two animation frames: xterm draws in the first after the write.
		p.do(chromedp.Evaluate[chromedp.Void](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`, chromedp.EvalAwaitPromise))
	}
	check := func(what string, before, after screenRows) {
		t.Helper()
		for y, r := range after.Shown {
			if r[0] != r[1] {
				t.Errorf("%s: row %d shows %q, the terminal holds %q", what, y, r[1], r[0])
			}
		}
		if before.Held == nil || len(before.Held) != len(after.Held) {
			return
		}
		rebuilt := eval[[]int](p, `[...window.__rebuilt]`)
		cursor := eval[int](p, `term._core.coreService.isCursorHidden ? -1 : term.buffer.active.cursorY`)
		var changed []int
		for y := range after.Held {
			if after.Held[y] != before.Held[y] {
				changed = append(changed, y)
				if !slices.Contains(rebuilt, y) {
					t.Errorf("%s: row %d changed but its element was not redrawn", what, y)
				}
			}
		}
		var needless []int
		for _, y := range rebuilt {
			if !slices.Contains(changed, y) && y != cursor {
				needless = append(needless, y)
			}
		}
		slices.Sort(needless)
		if len(needless) > 0 {
			t.Errorf("%s: %d rows changed (%v), but %d unchanged rows were redrawn too: %v", what, len(changed), changed, len(needless), needless)
		}
		if len(changed) == 0 {
			t.Errorf("%s: no row changed", what)
		}
	}
	step := func(key, expect string) {
		t.Helper()
		settle()
		before := eval[screenRows](p, rowsJS)
		p.do(chromedp.Evaluate[chromedp.Void](`window.__rebuilt.clear()`))
		p.press(key)
		p.waitText(expect)
		settle()
		check(fmt.Sprintf("%s (%s)", key, strings.TrimSpace(expect)), before, eval[screenRows](p, rowsJS))
	}
	first := eval[int](p, `Number(window.bufferText().match(/ step (\d+) /)[1])`)
	for i := 1; i <= 4; i++ {
		step("s", fmt.Sprintf(" gcplay │ step %d │", first+i))
	}
	for i := 1; i <= 3; i++ {
		step("ArrowLeft", fmt.Sprintf("step %d of %d (rewound)", first+4-i, first+4))
	}
	// A resize makes new row elements; each shows its row.
	cols := eval[int](p, `term.cols`)
	p.do(chromedp.EmulateViewport(1100, 700))
	p.waitJS(fmt.Sprintf(`term.cols < %d`, cols), 10*time.Second)
	p.waitJS(`(() => { const l = window.bufferText().split('\n'); return l[l.length-1].includes('? help') })()`, 10*time.Second)
	settle()
	check("after a resize", screenRows{}, eval[screenRows](p, rowsJS))
	step("ArrowRight", fmt.Sprintf("step %d of %d (rewound)", first+2, first+4))
	p.checkExceptions()
}

// TestFirstFrameMeasuresNoCharacter: xterm.js measures a character's width
// (a forced layout) the first time it draws it; the page measures the
// characters the playground draws while it waits for main.wasm, so that
// drawing the first frame, which rebuilds every row, measures none of the
// starter world's characters.
func TestFirstFrameMeasuresNoCharacter(t *testing.T) {
	p := newPage(t, 1280, 800)
	srv := serve(t, site(t))
	// Before the page's own scripts: count what is written into xterm's
	// measuring elements, and how much of it came after Go's first write.
	if _, err := chromedp.Call(p.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `
		window.__measured = []; window.__atFirstWrite = -1;
		new MutationObserver((ms) => { for (const m of ms) {
			const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
			if (el?.classList?.contains('xterm-char-measure-element')) window.__measured.push(1);
		} }).observe(document, { subtree: true, childList: true, characterData: true });
		let write;
		Object.defineProperty(window, 'goTermWrite', { configurable: true,
			get: () => write && ((u8) => { if (window.__atFirstWrite < 0) window.__atFirstWrite = window.__measured.length; return write(u8); }),
			set: (f) => { write = f; } });`}); err != nil {
		t.Fatal(err)
	}
	p.load(srv.URL)
	p.do(chromedp.Evaluate[chromedp.Void](`new Promise((r) => requestAnimationFrame(() => setTimeout(r)))`, chromedp.EvalAwaitPromise))
	type counts struct {
		Measured []int
		At       int
	}
	c := eval[counts](p, `({ Measured: window.__measured, At: window.__atFirstWrite })`)
	if c.At < 0 {
		t.Fatalf("Go never wrote through goTermWrite")
	}
	if during := c.Measured[c.At:]; len(during) > 0 {
		t.Errorf("drawing the first frame measured characters %d times; %d measurements were made before it", len(during), c.At)
	}
	p.checkExceptions()
}

// TestFirstFrameParsedAsWritten: until the first frame, what Go writes is
// in xterm's buffer when the write returns (xterm alone parses a write
// in a later task, in slices), and the playground takes a command after
// it (xterm answers Bubble Tea's terminal queries while it parses, inside
// Go's write: the answers wait in the page's input queue).
func TestFirstFrameParsedAsWritten(t *testing.T) {
	p := newPage(t, 1280, 800)
	srv := serve(t, site(t))
	if _, err := chromedp.Call(p.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `
		window.__writes = [];
		let write;
		Object.defineProperty(window, 'goTermWrite', { configurable: true,
			get: () => write && ((u8) => { const r = write(u8);
				window.__writes.push({ Bytes: u8.length, Shown: window.bufferText().trim() !== '', Before: window.__t.firstFrame === undefined }); return r; }),
			set: (f) => { write = f; } });`}); err != nil {
		t.Fatal(err)
	}
	p.load(srv.URL)
	type write struct {
		Bytes         int
		Shown, Before bool
	}
	writes := eval[[]write](p, `window.__writes`)
	var framed bool
	for _, w := range writes {
		if w.Before && w.Shown {
			framed = true
		}
	}
	if !framed {
		t.Errorf("no write before the first frame was in xterm's buffer when it returned: %+v", writes)
	}
	p.command("delete deploy/web --cascade=foreground")
	p.waitText("Deployment/web terminating")
	p.checkExceptions()
}

// TestKeyBeforeFirstFrame: a key typed while the playground starts waits
// in the page until the first frame and is then taken: the program's
// input reader, which the browser build starts only once that frame is
// drawn (goStartInput), reads it. The key comes in as xterm's own input
// does, at Go's onGoReady, before Go writes its first frame.
func TestKeyBeforeFirstFrame(t *testing.T) {
	p := newPage(t, 1280, 800)
	srv := serve(t, site(t))
	if _, err := chromedp.Call(p.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `
		let ready;
		Object.defineProperty(window, 'onGoReady', { configurable: true,
			get: () => ready && ((...a) => { window.__typedBefore = window.__t.firstFrame === undefined; window.term.input('?'); return ready(...a); }),
			set: (f) => { ready = f; } });`}); err != nil {
		t.Fatal(err)
	}
	p.load(srv.URL)
	if !eval[bool](p, `window.__typedBefore === true`) {
		t.Fatalf("the key was not typed before the first frame (window.__typedBefore = %v)", eval[any](p, `window.__typedBefore ?? null`))
	}
	p.waitText("Step the collector") // the help that ? opens
	p.press("Escape")
	p.waitJS(`!window.bufferText().includes('Step the collector')`, 5*time.Second)
	p.command("delete deploy/web --cascade=foreground")
	p.waitText("Deployment/web terminating")
	p.checkExceptions()
}

// TestStartMeasuresInOneLayout: the characters the page measures while
// main.wasm loads (some 400: printable ASCII in three variants, the
// borders and marks in two) are measured in one layout, not one each.
// A layout is counted when a measuring element's width is read after
// anything in the page changed.
func TestStartMeasuresInOneLayout(t *testing.T) {
	p := newPage(t, 1280, 800)
	srv := serve(t, site(t))
	if _, err := chromedp.Call(p.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `
		window.__measures = { reads: 0, layouts: 0 };
		const changes = new MutationObserver(() => {});
		changes.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
		const width = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetWidth');
		Object.defineProperty(HTMLElement.prototype, 'offsetWidth', { configurable: true, get() {
			if (this.classList.contains('xterm-char-measure-element')) {
				window.__measures.reads++;
				if (changes.takeRecords().length > 0) window.__measures.layouts++;
			}
			return width.get.call(this);
		} });`}); err != nil {
		t.Fatal(err)
	}
	p.load(srv.URL)
	type measures struct{ Reads, Layouts int }
	m := eval[measures](p, `window.__measures`)
	t.Logf("%d widths read in %d layouts before the first frame", m.Reads, m.Layouts)
	if m.Reads < 300 {
		t.Errorf("only %d widths were read before the first frame: the page no longer measures the playground's characters at the start, and this test shows nothing", m.Reads)
	}
	// xterm measures its cell's width itself a few times as it sets up
	// (4 layouts in all with the page's one, in xterm.js 6.0.0).
	if m.Layouts > 10 {
		t.Errorf("the start's %d width reads took %d layouts, want one for the playground's characters and a few of xterm's own", m.Reads, m.Layouts)
	}
	p.checkExceptions()
}

// scrollSeq matches the terminal sequences that move lines within the
// screen: a scrolling region (DECSTBM), scrolling it up or down, inserting
// or deleting lines, a reverse index.
var scrollSeq = regexp.MustCompile(`\x1b\[\d*(;\d*)?r|\x1b\[\d*[STLM]|\x1bM`)

// TestKeyFramesRewriteRows: a key's frame rewrites the rows that changed
// instead of scrolling a region of the screen and filling the rest in
// (the renderer's scroll optimisation, which the page turns off): a region
// scrolled makes xterm.js redraw all of it. Steps forward add a line to
// the timeline and steps back take one away, the frames that would scroll.
func TestKeyFramesRewriteRows(t *testing.T) {
	p := newPage(t, 1280, 800)
	srv := serve(t, site(t))
	p.load(srv.URL)
	p.command("delete deploy/web --cascade=foreground")
	p.waitText("Deployment/web terminating")
	p.do(chromedp.Evaluate[chromedp.Void](`window.__written = [];
		{ const write = term.write.bind(term), dec = new TextDecoder();
		  term.write = (d, cb) => { window.__written.push(typeof d === 'string' ? d : dec.decode(d)); return write(d, cb); }; }`))
	first := eval[int](p, `Number(window.bufferText().match(/ step (\d+) /)[1])`)
	for i := 1; i <= 6; i++ {
		p.press("s")
		p.waitText(fmt.Sprintf(" gcplay │ step %d │", first+i))
	}
	for i := 1; i <= 6; i++ {
		p.press("ArrowLeft")
		p.waitText(fmt.Sprintf("step %d of %d (rewound)", first+6-i, first+6))
	}
	written := eval[[]string](p, `window.__written`)
	if len(written) < 12 {
		t.Fatalf("%d writes for 12 keys", len(written))
	}
	for i, w := range written {
		if m := scrollSeq.FindString(w); m != "" {
			t.Errorf("write %d of %d moves lines (%q): %q", i+1, len(written), m, w)
		}
	}
	p.checkExceptions()
}

// cellsJS is every screen cell as xterm.js holds it: its character (a blank
// one, erased or written, as a space: the two look alike), width, colours
// and attributes, a row a string.
const cellsJS = `(() => {
	const b = term.buffer.active, cell = b.getNullCell(), rows = [];
	for (let y = 0; y < term.rows; y++) {
		const line = b.getLine(b.viewportY + y);
		let s = '';
		for (let x = 0; x < term.cols; x++) {
			line.getCell(x, cell);
			const ch = cell.getChars() || ' ';
			// A blank's colour and weight do not show (unless inverted):
			// the renderer erases a run of them (EL) where it can, which
			// leaves only the background.
			s += (ch === ' ' && !cell.isInverse()
				? [ch, cell.getWidth(), cell.getBgColorMode(), cell.getBgColor(), cell.isUnderline(), cell.isStrikethrough()]
				: [ch, cell.getWidth(), cell.getFgColorMode(), cell.getFgColor(), cell.getBgColorMode(), cell.getBgColor(),
					cell.isBold(), cell.isItalic(), cell.isDim(), cell.isUnderline(), cell.isInverse(), cell.isInvisible(), cell.isStrikethrough()]).join(',') + ';';
		}
		rows.push(s);
	}
	return rows;
})()`

// TestKeyFramesAsRepainted: the browser build writes a key's frame to the
// terminal line by line (internal/framelines's Write: each changed line's
// own text from where it differs, no cell buffer); xterm.js then holds,
// cell for cell, what it holds after Bubble Tea's renderer repaints the
// same frame whole onto a cleared screen. Through steps, steps back, the
// command line (the cursor shown and moving), selection moves, the focus
// round the panes, help, and lesson 1 (its own panes and text); the
// repaint comes from a resize away and back, which the renderer draws
// whole. The test fails if no frame was written by lines.
func TestKeyFramesAsRepainted(t *testing.T) {
	keyFramesAsRepainted(t, "en", 1280, 800)
}

// TestKeyFramesAsRepaintedChinese: the same on the Chinese page, whose
// frames hold wide characters (the status line, the panes' titles and
// text, help, the lesson) and are written by lines too: xterm.js then
// holds, cell for cell, what the renderer's whole repaint gives, at two
// window sizes (the panes' borders and the Chinese text fall on other
// columns).
func TestKeyFramesAsRepaintedChinese(t *testing.T) {
	for _, size := range [][2]int{{1280, 800}, {800, 600}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			keyFramesAsRepainted(t, "zh", size[0], size[1])
		})
	}
}

func keyFramesAsRepainted(t *testing.T, lang string, w, h int) {
	p, words := langPage(t, lang, w, h)
	srv := serve(t, site(t))
	p.load(srv.URL)
	settle := func() {
		p.do(chromedp.Evaluate[chromedp.Void](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`, chromedp.EvalAwaitPromise))
	}
	cols, rows := eval[int](p, `term.cols`), eval[int](p, `term.rows`)
	written := 0
	count := func() int { return eval[int](p, `window.goFramesWritten()`) }
	text := func() string { // erased cells and written blanks alike
		lines := strings.Split(p.screen(), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		return strings.Join(lines, "\n")
	}
	compare := func(what string) {
		t.Helper()
		// The key's frame, and any that follows it on its own (the
		// result of a command the key started comes at a later tick).
		var byLines []string
		var textBefore string
		for try := 0; ; try++ {
			settle()
			n := count()
			byLines, textBefore = eval[[]string](p, cellsJS), text()
			written = max(written, n)
			settle()
			if count() == n && slices.Equal(eval[[]string](p, cellsJS), byLines) {
				break
			}
			if try == 5 {
				t.Fatalf("%s: the screen keeps changing", what)
			}
		}
		// The renderer draws a resized frame whole, on a cleared screen.
		n := eval[int](p, fmt.Sprintf(`window.goTermResize(%d, %d); window.goFlush(); window.goTermResize(%d, %d); window.goFlush(); window.goFramesWritten()`, cols-1, rows, cols, rows))
		settle()
		whole := eval[[]string](p, cellsJS)
		if count() != n {
			t.Fatalf("%s: a frame was written by lines after the repaint", what)
		}
		if textAfter := text(); textAfter != textBefore {
			b, a := strings.Split(textBefore, "\n"), strings.Split(textAfter, "\n")
			for y := range min(len(a), len(b)) {
				if a[y] != b[y] {
					t.Errorf("%s: row %d as written by lines:\n%q\nrepainted whole:\n%q", what, y, b[y], a[y])
				}
			}
			return
		}
		for y := range whole {
			if y < len(byLines) && byLines[y] != whole[y] {
				t.Errorf("%s: row %d's cells as written by lines:\n%s\nrepainted whole:\n%s", what, y, byLines[y], whole[y])
			}
		}
	}
	keys := func(expect string, ks ...string) {
		t.Helper()
		for _, k := range ks {
			p.press(k)
			if expect != "" {
				p.waitText(expect)
			}
			compare(k)
		}
	}
	p.press(":")
	for _, r := range "delete deploy/web --cascade=foreground" {
		keys("", string(r))
	}
	p.press("Enter")
	p.waitText("Deployment/web terminating")
	compare("the delete")
	first := p.stepNumber(words)
	for i := 1; i <= 4; i++ {
		keys(fmt.Sprintf(words.step, first+i), "s")
	}
	for i := 1; i <= 3; i++ {
		keys(fmt.Sprintf(words.rewound, first+4-i, first+4), "ArrowLeft")
	}
	keys("", "ArrowDown", "ArrowDown", "ArrowUp", "s", "Tab", "ArrowDown", "ArrowDown", "s", "Tab", "ArrowDown", "ArrowLeft", "Tab", "Tab")
	keys(words.help, "?")
	// Escape reaches the program once the input reader has waited for
	// more of a sequence.
	p.press("Escape")
	p.waitJS(fmt.Sprintf(`!window.bufferText().includes(%q)`, words.help), 5*time.Second)
	compare("Escape")
	keys("", "ArrowLeft", "ArrowRight")
	before := written
	if before == 0 {
		t.Fatalf("no frame of the playground was written by lines")
	}
	p.do(chromedp.Evaluate[chromedp.Void](`location.hash = '#lesson=owners-and-dependents'`))
	p.waitText(words.lesson1)
	compare("lesson 1")
	keys("", "Enter", "s", "s", "ArrowLeft", "ArrowDown", "ArrowUp")
	if written == before {
		t.Errorf("no frame of lesson 1 was written by lines")
	}
	t.Logf("%d frames written by lines", written)
	p.checkExceptions()
}

// TestChineseKeysMeasureBeforeDrawing: xterm.js measures a character's
// width (a forced layout) the first time it draws it, and a Chinese frame
// brings characters not drawn before on most keys. Measured while the
// frame's rows are being replaced, each is a layout of the rows drawn so
// far; the page measures them before any row of the frame changes. On the
// Chinese page, at two window sizes, through steps and steps back: in each
// frame no measuring comes after a row changed, some frames did measure,
// and every character of the rows stands in its columns (its letter
// spacing, from those widths, puts each box-drawing character where its
// cell is).
func TestChineseKeysMeasureBeforeDrawing(t *testing.T) {
	for _, size := range [][2]int{{1280, 800}, {800, 600}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			p, words := langPage(t, "zh", size[0], size[1])
			srv := serve(t, site(t))
			p.load(srv.URL)
			p.bordersInColumns("the first frame")
			p.command("delete deploy/web --cascade=foreground")
			p.waitText(fmt.Sprintf(words.step, 1))
			p.bordersInColumns("the delete")
			// A frame's mutations come to the observer together, in order.
			p.do(chromedp.Evaluate[chromedp.Void](`window.__measures = { frames: 0, late: 0 };
				new MutationObserver((ms) => {
					let drawn = false, measured = false;
					for (const m of ms) {
						const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
						if (el?.closest('.xterm-width-cache-measure-container')) {
							measured = true;
							if (drawn) window.__measures.late++;
						} else if (el?.closest('.xterm-rows')) drawn = true;
					}
					if (measured) window.__measures.frames++;
				}).observe(document.body, { subtree: true, childList: true, characterData: true })`))
			first := p.stepNumber(words)
			const n = 8
			for i := 1; i <= n; i++ {
				p.press("s")
				p.waitText(fmt.Sprintf(words.step, first+i))
			}
			for i := 1; i <= n; i++ {
				p.press("ArrowLeft")
				p.waitText(fmt.Sprintf(words.rewound, first+n-i, first+n))
			}
			p.bordersInColumns("the steps and steps back")
			type measures struct{ Frames, Late int }
			m := eval[measures](p, `window.__measures`)
			if m.Late > 0 {
				t.Errorf("characters were measured %d times after a row of their frame was drawn", m.Late)
			}
			if m.Frames == 0 {
				t.Errorf("no frame of the keys measured a character: the keys brought none not drawn before, and this test shows nothing")
			}
			t.Logf("%d frames measured characters", m.Frames)
			p.checkExceptions()
		})
	}
}

// bordersInColumns reports (as errors, after what) each box-drawing
// character the screen shows off its column, once the frames written so
// far are drawn. With Noto Sans CJK, Chromium set fullwidth punctuation
// measured in a row of 32 half wide (text-spacing-trim), and each row
// after a "：" slid off its columns (the page's style.css, #terminal).
func (p *page) bordersInColumns(after string) {
	p.t.Helper()
	p.do(chromedp.Evaluate[chromedp.Void](`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`, chromedp.EvalAwaitPromise))
	for _, e := range eval[[]string](p, bordersInColumnsJS) {
		p.t.Errorf("after %s: %s", after, e)
	}
}

// bordersInColumnsJS lists each box-drawing character (│ ─ and the
// corners) whose place on the screen is not its cell's: drawn more than a
// quarter of a cell left or right of its column.
const bordersInColumnsJS = `(() => {
	const b = term.buffer.active, cell = b.getNullCell(), errs = [];
	const screen = document.querySelector('.xterm-screen').getBoundingClientRect();
	const cw = screen.width / term.cols;
	const rows = document.querySelectorAll('.xterm-rows > div');
	for (let y = 0; y < term.rows; y++) {
		const line = b.getLine(b.viewportY + y), want = [];
		for (let x = 0; x < term.cols; x++) {
			line.getCell(x, cell);
			if (/^[│─╭╮╰╯├┤┬┴┼]$/.test(cell.getChars())) want.push(x);
		}
		const got = [], walk = document.createTreeWalker(rows[y], NodeFilter.SHOW_TEXT);
		for (let node = walk.nextNode(); node; node = walk.nextNode()) {
			for (let i = 0; i < node.data.length; i++) {
				if (!/[│─╭╮╰╯├┤┬┴┼]/.test(node.data[i])) continue;
				const r = document.createRange();
				r.setStart(node, i);
				r.setEnd(node, i + 1);
				got.push(r.getBoundingClientRect().left - screen.left);
			}
		}
		if (got.length !== want.length) {
			errs.push('row ' + y + ' shows ' + got.length + ' box-drawing characters, the terminal holds ' + want.length);
			continue;
		}
		for (let k = 0; k < want.length; k++) {
			if (Math.abs(got[k] - want[k] * cw) > cw / 4) {
				errs.push('row ' + y + ': the box-drawing character of column ' + want[k] + ' is drawn at ' + (got[k] / cw).toFixed(2) + ' cells');
				break;
			}
		}
	}
	return errs;
})()`
