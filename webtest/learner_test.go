package webtest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/gcplay/gcplay/internal/website"
)

// The page tried as a learner would (issue 19): each test drives real
// Chromium at the window size that showed a problem, with the viewport
// set to exactly that size.

// at sets the viewport (what the page lays out in) to w×h CSS pixels and
// checks that the page sees it.
func (p *page) at(w, h int) {
	p.t.Helper()
	p.do(chromedp.EmulateViewport(int64(w), int64(h)))
	if got := eval[string](p, `innerWidth + 'x' + innerHeight`); got != fmt.Sprintf("%dx%d", w, h) {
		p.t.Fatalf("the viewport is %s, want %dx%d", got, w, h)
	}
}

// modCtrl is the Ctrl bit of a key event's modifiers.
const modCtrl = 2

// keyMod sends one key with modifiers (modCtrl, ...), as a
// keyboard does: keyDown, keyUp.
func (p *page) keyMod(key, code string, vk int64, mods int64) {
	p.t.Helper()
	for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp} {
		e := input.DispatchKeyEventParams{Type: typ, Key: key, Code: code, WindowsVirtualKeyCode: vk, NativeVirtualKeyCode: vk, Modifiers: mods}
		if _, err := chromedp.Call(p.ctx, input.DispatchKeyEvent, e); err != nil {
			p.t.Fatal(err)
		}
	}
}

// click clicks an element of the page by its id.
func (p *page) click(id string) {
	p.t.Helper()
	if !eval[bool](p, fmt.Sprintf(`(() => { const b = document.getElementById(%q); if (!b || !b.checkVisibility()) return false; b.click(); return true })()`, id)) {
		p.t.Fatalf("#%s is not on the page, or hidden", id)
	}
}

// visible reports whether an element is shown wholly inside the viewport.
func (p *page) visible(id string) bool {
	p.t.Helper()
	return eval[bool](p, fmt.Sprintf(`(() => {
		const e = document.getElementById(%q);
		if (!e || !e.checkVisibility()) return false;
		const r = e.getBoundingClientRect();
		return r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
	})()`, id))
}

// waitSaved waits until the world is kept in localStorage and the address
// bar, and returns the link.
func (p *page) waitSaved() string {
	p.t.Helper()
	p.waitJS(`location.hash.startsWith('#s=') && localStorage.getItem('gcplay.world') === location.hash.slice(3)`, 10*time.Second)
	return eval[string](p, `location.hash.slice(3)`)
}

// Issue 19.1: a lesson link in a short or narrow window hung on
// "Starting…": the page waited for the status line, which the lesson's
// introduction covers there. The loading state must end, and keys reach
// the lesson, at every size.
func TestLessonStartsInAnyWindow(t *testing.T) {
	srv := serve(t, site(t))
	p := newPage(t, 1280, 800)
	for _, sz := range [][2]int{{800, 600}, {900, 700}, {800, 800}, {1000, 500}, {1280, 800}} {
		w, h := sz[0], sz[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			p.t = t
			p.do(chromedp.Navigate("about:blank"))
			p.at(w, h)
			p.load(srv.URL + "#lesson=foreground")
			p.waitText("Lesson 3")
			if !eval[bool](p, `document.getElementById('overlay').hidden`) {
				t.Fatalf("the loading overlay still shows %q", eval[string](p, `document.getElementById('overlay-title').textContent`))
			}
			// Keys reach the lesson: enter closes its introduction, ? opens
			// the help.
			p.press("Enter")
			p.press("?")
			p.waitText("Step the collector")
			p.press("Escape")
			p.checkExceptions()
		})
	}
}

// Issue 19.2: the course is reachable from the page: a Lessons button
// with the learner's progress, the picker, the next lesson one click (or
// N) away, and L from the playground.
func TestCourseFromThePage(t *testing.T) {
	srv := serve(t, site(t))
	for _, sz := range [][2]int{{1280, 800}, {800, 600}} {
		w, h := sz[0], sz[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			p := newPage(t, w, h)
			p.at(w, h)
			p.load(srv.URL)
			// The button shows the lessons done out of the course's.
			p.waitJS(`window.__t.course !== undefined && document.getElementById('course-progress').textContent === '0/' + window.__t.course.total`, 10*time.Second)
			total := eval[int](p, `window.__t.course.total`)
			if total < 10 {
				t.Fatalf("the course has %d lessons", total)
			}
			if !p.visible("lessons") {
				t.Fatalf("the Lessons button is not visible at %dx%d", w, h)
			}
			// The help names the course's key.
			p.press("?")
			p.waitText("The course")
			p.press("Escape")
			p.waitJS(`!window.bufferText().includes('Step the collector')`, 5*time.Second)

			p.click("lessons")
			p.waitText(fmt.Sprintf("0 of %d done", total))
			p.press("Enter")
			p.waitText("Lesson 1")
			p.waitJS(`location.hash === '#lesson=owners-and-dependents'`, 10*time.Second)
			p.waitJS(`!document.getElementById('next').hidden && document.getElementById('new').textContent === 'Restart lesson'`, 10*time.Second)

			// Reach the goal with the lesson's own solution (A, then enter
			// replays a step): progress shows on the button.
			p.press("Enter") // close the introduction
			for i := 0; i < 2; i++ {
				p.press("A")
				p.waitText("Solution")
				p.press("Enter")
			}
			p.waitText("You reached the goal")
			p.waitJS(fmt.Sprintf(`document.getElementById('course-progress').textContent === '1/%d'`, total), 10*time.Second)
			p.press("N")
			p.waitText("Lesson 2")
			p.waitJS(`location.hash === '#lesson=background-step-by-step'`, 10*time.Second)
			p.click("next")
			p.waitText("Lesson 3")

			// From the plain playground, L opens the picker too, with the
			// progress kept.
			p.load(srv.URL)
			p.press("L")
			p.waitText(fmt.Sprintf("1 of %d done", total))
			p.checkExceptions()
		})
	}
}

// Issue 19.3: Start over inside a lesson put the lesson back at its start
// and must not touch the learner's own playground world, nor leave the
// lesson.
func TestRestartLessonKeepsMyWorld(t *testing.T) {
	srv := serve(t, site(t))
	p := newPage(t, 1280, 800)
	p.at(1280, 800)
	p.load(srv.URL)
	p.command("create cm mine")
	p.waitText("ConfigMap/mine created")
	mine := p.waitSaved()

	p.load(srv.URL + "#lesson=foreground")
	p.waitText("Lesson 3")
	p.press("Enter")
	p.command("create cm extra")
	p.waitText("ConfigMap/extra created")
	p.waitJS(`localStorage.getItem('gcplay.lesson/foreground') !== null`, 10*time.Second)
	p.waitJS(`document.getElementById('new').textContent === 'Restart lesson'`, 10*time.Second)
	eval[bool](p, `(window.confirm = () => true, true)`) // the playground's Start over asks first
	p.click("new")
	p.waitJS(`!window.bufferText().includes('ConfigMap/extra')`, 10*time.Second)
	p.waitText("Lesson 3")
	if got := eval[string](p, `location.hash`); got != "#lesson=foreground" {
		t.Errorf("after Restart lesson the address bar is %q, want the lesson", got)
	}
	if got := eval[string](p, `localStorage.getItem('gcplay.world') || ''`); got != mine {
		t.Errorf("restarting the lesson changed the learner's own world in localStorage")
	}
	p.checkExceptions()
}

// Issue 19.4: a reload right after a change (before the address bar is
// written) must reopen the newest world as the learner's own, not the
// address bar's older one as "a shared world".
func TestReloadRightAfterAChange(t *testing.T) {
	srv := serve(t, site(t))
	p := newPage(t, 1280, 800)
	p.at(1280, 800)
	p.load(srv.URL)
	p.command("create cm one")
	p.waitText("ConfigMap/one created")
	p.waitSaved()
	// The change and the reload in one go, as the page's Open button runs
	// a command: the address bar still names the world without
	// ConfigMap/two (it is written 200 ms after a change). One script
	// does both: Go takes the command before goCommand returns, and the
	// reload's timer, due at once, fires before the write's, due 200 ms
	// later, however slow the machine. (With the command and the reload in
	// two calls, a busy machine let 200 ms pass between them.) The old
	// page is marked: it runs on until the reload's answer comes, and the
	// waits below are for the new one.
	stale := eval[bool](p, `(() => {
		const before = window.__t.saved;
		window.goCommand('create cm two');
		window.__old = true;
		setTimeout(() => location.reload());
		return window.__t.saved === before;
	})()`)
	if !stale {
		t.Fatalf("the world was written before the reload: this test needs the reload to come first")
	}
	p.waitJS(`window.__old === undefined && window.__t !== undefined && window.__t.firstFrame !== undefined`, 30*time.Second)
	scr := p.waitText("ConfigMap/two")
	if strings.Contains(scr, "shared world") || !strings.Contains(scr, "Welcome back") {
		t.Errorf("after a reload the page does not greet the learner's own world:\n%s", scr)
	}
	if !eval[bool](p, `document.getElementById('back').hidden`) {
		t.Errorf("Back to my world shows after a reload of one's own world")
	}
	p.checkExceptions()
}

// Issue 19.5: in a page, Ctrl+C means copy and a lone q is too easy to
// press: neither quits (the quit command still does).
func TestCtrlCAndQDoNotQuit(t *testing.T) {
	srv := serve(t, site(t))
	p := newPage(t, 800, 600)
	p.at(800, 600)
	p.load(srv.URL)
	// No hint names a key that does not quit here.
	if scr := p.screen(); regexp.MustCompile(`(^|\s)q\s+quit`).MatchString(scr) {
		t.Errorf("the page's key line offers q to quit:\n%s", scr)
	}
	p.keyMod("c", "KeyC", 67, modCtrl)
	p.waitText("Ctrl+C copies here")
	p.press("q")
	p.waitText("q does not quit in the page")
	time.Sleep(300 * time.Millisecond)
	if eval[bool](p, `window.__t.exited !== undefined`) {
		t.Fatalf("the playground quit")
	}
	// In the command bar q is a letter; the quit command quits.
	p.command("quit")
	p.waitJS(`window.__t.exited === 'ok'`, 10*time.Second)
	p.checkExceptions()
}

// Issue 19.6: gcplay web sends main.wasm as its brotli copy, and the
// loading text states the size really fetched. The wasm is compiled while
// it downloads.
func TestWasmFetchedCompressed(t *testing.T) {
	dir := site(t)
	wasm, err := website.WasmName(dir)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.Stat(filepath.Join(dir, wasm))
	if err != nil {
		t.Fatal(err)
	}
	br, err := os.Stat(filepath.Join(dir, wasm+".br"))
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, dir)
	p := newPage(t, 1280, 800)
	p.at(1280, 800)
	p.load(srv.URL)
	type sizes struct{ Encoded, Decoded int64 }
	got := eval[sizes](p, fmt.Sprintf(`(() => {
		const e = performance.getEntriesByType('resource').find((e) => e.name.endsWith(%q));
		return { Encoded: e.encodedBodySize, Decoded: e.decodedBodySize };
	})()`, "/"+wasm))
	if got.Encoded != br.Size() || got.Decoded != raw.Size() {
		t.Errorf("main.wasm came as %d bytes decoded to %d; want the brotli copy, %d bytes, decoded to %d", got.Encoded, got.Decoded, br.Size(), raw.Size())
	}
	want := fmt.Sprintf("%.2f MB (brotli), once: it then works offline", float64(br.Size())/1e6)
	if text := eval[string](p, `document.getElementById('overlay-detail').textContent`); text != want {
		t.Errorf("the loading text says %q, want %q", text, want)
	}
	if !eval[bool](p, `window.__t.streaming === true`) {
		t.Errorf("main.wasm was not compiled with compileStreaming")
	}
	p.checkExceptions()
}

// Issue 19.7: small windows. At 800×600 the header is one thin bar and
// folds away, and every pane of the playground shows; a phone (390×844)
// gets a layout that fits, not "the terminal is too small".
func TestSmallWindows(t *testing.T) {
	srv := serve(t, site(t))
	t.Run("800x600", func(t *testing.T) {
		p := newPage(t, 800, 600)
		p.at(800, 600)
		p.load(srv.URL)
		if h := eval[float64](p, `document.querySelector('header').getBoundingClientRect().height`); h > 44 {
			t.Errorf("the header is %.0f px high at 800x600, want one bar (≤ 44)", h)
		}
		scr := p.screen()
		for _, want := range []string{" gcplay │ step 0", "World · ", "Collector", "Timeline · step 0", "? help"} {
			if !strings.Contains(scr, want) {
				t.Errorf("at 800x600 the playground does not show %q:\n%s", want, scr)
			}
		}
		rows := eval[int](p, `term.rows`)
		if rows < 30 {
			t.Errorf("the terminal has %d rows at 800x600, want at least 30", rows)
		}
		for _, id := range []string{"lessons", "share", "save", "open", "new", "collapse"} {
			if !p.visible(id) {
				t.Errorf("#%s is not visible at 800x600", id)
			}
		}
		p.click("collapse")
		p.waitJS(fmt.Sprintf(`term.rows > %d`, rows), 5*time.Second)
		if h := eval[float64](p, `document.querySelector('header').getBoundingClientRect().height`); h > 1 {
			t.Errorf("the folded header is %.0f px high, want none", h)
		}
		if !p.visible("collapse") {
			t.Errorf("the button that unfolds the header is not visible")
		}
		p.waitJS(`(() => { const l = window.bufferText().split('\n'); return l[0].includes('gcplay │') && l[l.length-1].includes('? help') })()`, 5*time.Second)
		// Folded stays folded on the next visit.
		p.load(srv.URL)
		if !eval[bool](p, `document.body.classList.contains('folded')`) {
			t.Errorf("the header unfolded on the next visit")
		}
		p.click("collapse")
		p.checkExceptions()
	})
	t.Run("1000x500", func(t *testing.T) {
		p := newPage(t, 1000, 500)
		p.at(1000, 500)
		p.load(srv.URL)
		if scr := p.screen(); strings.Contains(scr, "needs at least") || !strings.Contains(scr, " gcplay │ step 0") {
			t.Errorf("at 1000x500 the playground does not draw:\n%s", scr)
		}
		p.checkExceptions()
	})
	t.Run("390x844", func(t *testing.T) {
		p := newPage(t, 390, 844)
		p.at(390, 844)
		p.load(srv.URL)
		scr := p.screen()
		if strings.Contains(scr, "needs at least") || !strings.Contains(scr, " gcplay │ step 0") || !strings.Contains(scr, "World · ") {
			t.Errorf("a phone does not get the playground:\n%s", scr)
		}
		if eval[int](p, `document.documentElement.scrollWidth`) > 390 {
			t.Errorf("the page is wider than the phone: %d px", eval[int](p, `document.documentElement.scrollWidth`))
		}
		if !p.visible("lessons") || !p.visible("menu") {
			t.Errorf("the Lessons and ☰ buttons are not both visible on a phone")
		}
		if p.visible("share") {
			t.Errorf("the world's buttons take the phone's rows before ☰ is pressed")
		}
		p.click("menu")
		p.waitJS(`document.getElementById('share').offsetParent !== null`, 5*time.Second)
		p.press("s")
		p.checkExceptions()
	})
}

// Issue 19.8: a share link that cannot be opened says why, keeps the
// learner's own world on screen, and offers no "Back to my world" (the
// world never left).
func TestBadShareLink(t *testing.T) {
	srv := serve(t, site(t))
	p := newPage(t, 1280, 800)
	p.at(1280, 800)
	p.load(srv.URL)
	p.command("create cm mine")
	p.waitText("ConfigMap/mine created")
	mine := p.waitSaved()
	p.load(srv.URL + "#s=not-a-link")
	scr := p.waitText("could not be opened: ")
	if !strings.Contains(scr, "ConfigMap/mine") || !strings.Contains(scr, "Your own world is below") {
		t.Errorf("the learner's world is not shown with the reason:\n%s", scr)
	}
	line := ""
	for _, l := range strings.Split(scr, "\n") {
		if strings.Contains(l, "could not be opened: ") {
			line = l
		}
	}
	if reason := strings.TrimSpace(line[strings.Index(line, "could not be opened: ")+len("could not be opened: "):]); len(reason) < 10 {
		t.Errorf("the message gives no reason: %q", line)
	}
	if !eval[bool](p, `document.getElementById('back').hidden && localStorage.getItem('gcplay.world.before-link') === null`) {
		t.Errorf("Back to my world is offered, though the learner's world never left")
	}
	p.waitJS(fmt.Sprintf(`location.hash === '#s=' + %q`, mine), 10*time.Second)
	p.checkExceptions()
}

// A second visit starts from the service worker's copy of main.wasm: the
// server is not asked for it again, even with the HTTP cache cleared.
func TestSecondVisitFromServiceWorker(t *testing.T) {
	dir := site(t)
	wasm, err := website.WasmName(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, dir)
	p := newPage(t, 1280, 800)
	p.at(1280, 800)
	p.load(srv.URL)
	p.waitJS(`navigator.serviceWorker.controller !== null`, 20*time.Second)
	eval[bool](p, fmt.Sprintf(`(caches.keys().then((ks) => Promise.all(ks.map((k) => caches.open(k).then((c) => c.match(%q)))))
		.then((hits) => { window.__cached = hits.some(Boolean) }), true)`, wasm))
	p.waitJS(`window.__cached === true`, 20*time.Second)
	if _, err := chromedp.Call(p.ctx, network.ClearBrowserCache, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	n := srv.count("/" + wasm)
	p.load(srv.URL)
	p.waitText(" gcplay │ step 0")
	if got := srv.count("/" + wasm); got != n {
		t.Errorf("the second visit fetched %s from the server again (%d requests, %d before)", wasm, got, n)
	}
	p.checkExceptions()
}

// Issue 20: the page has a language switch. It shows the other language's
// name, reloads the playground in that language, keeps the learner's world,
// and its choice outlives the reload.
func TestLanguageSwitch(t *testing.T) {
	srv := serve(t, site(t))
	p := newPage(t, 1280, 800)
	p.at(1280, 800)
	p.load(srv.URL)
	p.command("create cm mine")
	p.waitText("ConfigMap/mine created")
	p.waitSaved()
	if got := eval[string](p, `document.getElementById('lang').textContent`); got != "中文" {
		t.Fatalf("the switch of an English page reads %q, want 中文", got)
	}
	p.click("lang")
	p.waitJS(`window.__t !== undefined && window.__t.firstFrame !== undefined`, 30*time.Second)
	scr := p.waitText("个对象")
	if !strings.Contains(scr, "ConfigMap/mine") {
		t.Errorf("the world was lost when the language changed:\n%s", scr)
	}
	if got := eval[string](p, `localStorage.getItem('gcplay.lang') || ''`); got != "zh" {
		t.Errorf("the choice kept is %q, want zh", got)
	}
	if got := eval[string](p, `document.getElementById('lang').textContent`); got != "English" {
		t.Errorf("the switch of a Chinese page reads %q, want English", got)
	}
	// The page's own words follow: its buttons, its title and its
	// language.
	for id, want := range map[string]string{"share": "分享链接", "save": "下载", "open": "打开…", "new": "重新开始", "about-toggle": "关于"} {
		if got := eval[string](p, `document.getElementById('`+id+`').textContent`); got != want {
			t.Errorf("in Chinese the %s button reads %q, want %q", id, got, want)
		}
	}
	if got := eval[string](p, `document.getElementById('lessons').firstChild.textContent`); got != "课程" {
		t.Errorf("in Chinese the lessons button reads %q, want 课程", got)
	}
	if got := eval[string](p, `document.documentElement.lang`); got != "zh-CN" {
		t.Errorf("a Chinese page's lang is %q, want zh-CN", got)
	}
	p.click("lang")
	p.waitJS(`window.__t !== undefined && window.__t.firstFrame !== undefined`, 30*time.Second)
	scr = p.waitText(" objects")
	if strings.Contains(scr, "个对象") || !strings.Contains(scr, "ConfigMap/mine") {
		t.Errorf("back in English the page shows:\n%s", scr)
	}
	if got := eval[string](p, `document.getElementById('share').textContent`); got != "Share link" {
		t.Errorf("back in English the share button reads %q", got)
	}
	p.checkExceptions()
}

// Issue 19: the lesson picker opened from the playground (L, or the
// Lessons button) shows over lesson 1; esc must go back to the learner's
// own world, not into lesson 1 with the address bar changed.
func TestPickerEscBackToMyWorld(t *testing.T) {
	srv := serve(t, site(t))
	p := newPage(t, 1280, 800)
	p.at(1280, 800)
	p.load(srv.URL)
	p.command("create cm mine")
	p.waitText("ConfigMap/mine created")
	mine := p.waitSaved()
	for _, open := range []func(){func() { p.press("L") }, func() { p.click("lessons") }} {
		open()
		p.waitText(" done. ✓ marks")
		p.press("Escape")
		p.waitJS(`!window.bufferText().includes(' done. ✓ marks')`, 5*time.Second)
		scr := p.screen()
		if strings.Contains(scr, "Lesson 1") || !strings.Contains(scr, "ConfigMap/mine") {
			t.Fatalf("esc in the picker did not go back to the learner's world:\n%s", scr)
		}
		if got := p.waitSaved(); got != mine {
			t.Errorf("after esc the address bar holds another world")
		}
	}
	p.checkExceptions()
}

// Issue 19.8: the explain view cited a file (GC-RULES.md) that a web user
// cannot open; it shows the rule's own words and names no file.
func TestExplainCitesNoFile(t *testing.T) {
	srv := serve(t, site(t))
	p := newPage(t, 1280, 800)
	p.at(1280, 800)
	p.load(srv.URL)
	p.command("delete deploy/web")
	p.waitText("step 1")
	p.press("s")
	p.waitText("step 2")
	p.press("e")
	scr := p.waitText("Rule R")
	if strings.Contains(scr, ".md") {
		t.Errorf("the explain view cites a file:\n%s", scr)
	}
	p.checkExceptions()
}

// Issue 19.8: the starter world's clock read +10m1s at step 0: settle had
// crossed the Deployment's progress-deadline re-check, a wait for time
// passing in the cluster. The world is at rest once its Pods started.
func TestStarterClockAtStepZero(t *testing.T) {
	srv := serve(t, site(t))
	p := newPage(t, 1280, 800)
	p.at(1280, 800)
	p.load(srv.URL)
	top := strings.Split(p.waitText(" gcplay │ step 0 │ "), "\n")[0]
	if !strings.Contains(top, "step 0 │ +3s │") {
		t.Errorf("the starter world's clock at step 0, want +3s (its Pods' start):\n%s", top)
	}
	p.checkExceptions()
}

// Issue 19: on a phone (390×844) a horizontal scrollbar appeared: opening
// the ☰ menu shrinks the terminal's room, and until the terminal was
// fitted again the playground's area scrolled, its vertical scrollbar
// pushing the terminal past the right edge. Scrollbars here take room, as
// in a desktop browser (headless Chromium hides them by default).
func TestNoScrollbarsOnAPhone(t *testing.T) {
	srv := serve(t, site(t))
	p := newPage(t, 390, 844, chromedp.Flag("hide-scrollbars", false))
	p.at(390, 844)
	p.load(srv.URL + "#lesson=foreground")
	p.waitText("Lesson 3")
	p.press("Enter")
	// The menu opens and the playground's area is measured in the same
	// task, before the page can fit the terminal again.
	bars := `(() => {
		const m = document.getElementById('wrap');
		const s = getComputedStyle(m);
		const bars = [];
		if (m.offsetWidth > m.clientWidth && s.overflowY !== 'hidden') bars.push('vertical (' + m.scrollHeight + ' > ' + m.clientHeight + ')');
		if (m.scrollWidth > m.clientWidth && s.overflowX !== 'hidden') bars.push('horizontal (' + m.scrollWidth + ' > ' + m.clientWidth + ')');
		return bars.join(', ');
	})()`
	if got := eval[string](p, `(document.getElementById('menu').click(), `+bars+`)`); got != "" {
		t.Errorf("opening the menu at 390x844 shows scrollbars: %s", got)
	}
	time.Sleep(500 * time.Millisecond)
	if got := eval[string](p, bars); got != "" {
		t.Errorf("with the menu open at 390x844 the playground shows scrollbars: %s", got)
	}
	if w := eval[int](p, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the page is %d px wide on a 390 px phone", w)
	}
	p.checkExceptions()
}

// Issue 20: a browser whose language is Chinese opens the Chinese
// playground without the switch: the page's buttons, the panes, and each
// step's reason in Chinese with its object names.
func TestChineseBrowser(t *testing.T) {
	srv := serve(t, site(t))
	p := newPage(t, 1280, 800, chromedp.Flag("lang", "zh-CN"), chromedp.Flag("accept-lang", "zh-CN"), chromedp.Env("LANGUAGE=zh_CN"))
	p.at(1280, 800)
	p.load(srv.URL)
	if got := eval[string](p, `navigator.language`); !strings.HasPrefix(strings.ToLower(got), "zh") {
		t.Fatalf("Chromium reports navigator.language %q for --lang=zh-CN", got)
	}
	p.waitText("个对象")
	p.bordersInColumns("the first frame")
	if got := eval[string](p, `document.getElementById('share').textContent`); got != "分享链接" {
		t.Errorf("the share button reads %q, want 分享链接", got)
	}
	p.press("d", "2", "s", "s", "s")
	scr := p.waitText("悬空的属主引用（dangling）Deployment/web")
	if !strings.Contains(scr, "它的属主都已不存在") {
		t.Errorf("the step's reason is not in Chinese with its values:\n%s", scr)
	}
	p.bordersInColumns("three steps")
	path, _ := p.shot("zh")
	t.Logf("screenshot: %s", path)
	if *screenshot != "" {
		png, _ := os.ReadFile(path)
		if err := os.WriteFile(*screenshot, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p.checkExceptions()
}
