package webtest

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/gcplay/gcplay/internal/testenv"
	"github.com/gcplay/gcplay/internal/website"
)

var (
	webbench = flag.Bool("webbench", false, "run TestWebBench: measure the page for docs/BENCHMARKS.md")
	// TestWebBench's key figures come from -webkeyrounds fresh pages (ten
	// keys of each kind per page: the starter world's delete has about
	// twenty steps); -webcold=false leaves out its cold loads.
	webKeyRounds = flag.Int("webkeyrounds", 1, "TestWebBench: fresh pages in which to time 10 s and 10 ← keys each")
	webCold      = flag.Bool("webcold", true, "TestWebBench: also time cold loads and what a first visit fetches")
	screenshot   = flag.String("screenshot", "", "also write TestPage's (TestChineseBrowser's) screenshot to this PNG file")
	// -weblang=zh times the keys on the Chinese page (a browser whose
	// language is Chinese), whose frames hold wide characters.
	webLang = flag.String("weblang", "en", "TestWebBench: the page's language, en or zh")
)

// pageWords are what the tests wait for on the page in a language: the
// status line's step (Sprintf with the step), a step back's (the step and
// the last one), the pattern of the status line's step number, the help's
// title and lesson 1's.
type pageWords struct {
	step, rewound, stepRE, help, lesson1 string
}

var wordsOf = map[string]pageWords{
	"en": {" gcplay │ step %d │", "step %d of %d (rewound)", ` step (\d+) `, "─ Help ─", "Lesson 1"},
	"zh": {" gcplay │ 第 %d 步 │", "第 %d/%d 步（已倒回）", `第 (\d+) 步`, "─ 帮助 ─", "属主与附属"},
}

// langPage starts a page (newPage) in a browser whose language is lang
// (en or zh: the page then shows the Chinese playground), and returns what
// to wait for in it.
func langPage(t *testing.T, lang string, w, h int) (*page, pageWords) {
	t.Helper()
	words, ok := wordsOf[lang]
	if !ok {
		t.Fatalf("no page language %q: en or zh", lang)
	}
	var extra []chromedp.ExecAllocatorOption
	if lang == "zh" {
		extra = append(extra, chromedp.Flag("lang", "zh-CN"), chromedp.Flag("accept-lang", "zh-CN"), chromedp.Env("LANGUAGE=zh_CN"))
	}
	return newPage(t, w, h, extra...), words
}

// stepNumber returns the step the status line shows.
func (p *page) stepNumber(w pageWords) int {
	p.t.Helper()
	return eval[int](p, fmt.Sprintf(`Number(window.bufferText().match(/%s/)[1])`, w.stepRE))
}

// chromium returns the path of Chromium, or "" when it is not installed.
func chromium() string {
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium", "/usr/lib/chromium/chromium"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	return ""
}

var (
	siteOnce  sync.Once
	siteBuilt string
	siteErr   error
)

// site returns the folder of a built page: $GCPLAY_SITE, or one built now
// with make web.
func site(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("GCPLAY_SITE"); d != "" {
		if _, err := website.WasmName(d); err != nil {
			t.Fatalf("GCPLAY_SITE=%s holds no built page (%v): run make web", d, err)
		}
		return d
	}
	siteOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gcplay-site-")
		if err != nil {
			siteErr = err
			return
		}
		cmd := exec.Command("make", "-s", "web", "SITE="+dir)
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			siteErr = fmt.Errorf("make web: %v\n%s", err, out)
			return
		}
		siteBuilt = dir
	})
	if siteErr != nil {
		t.Fatal(siteErr)
	}
	return siteBuilt
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if siteBuilt != "" {
		os.RemoveAll(siteBuilt)
	}
	os.Exit(code)
}

// server serves a built page on a loopback port and counts what it sends.
type server struct {
	URL   string
	srv   *http.Server
	mu    sync.Mutex
	paths []string
}

func serve(t *testing.T, dir string) *server {
	t.Helper()
	return serveThrough(t, dir, nil)
}

// serveThrough is serve with the site's handler wrapped by through (when
// not nil), as the bench's paced link does.
func serveThrough(t *testing.T, dir string, through func(http.Handler) http.Handler) *server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &server{URL: "http://" + ln.Addr().String() + "/"}
	// The page as gcplay web serves it: precompressed copies, cache headers.
	files := website.Handler(dir)
	if through != nil {
		files = through(files)
	}
	s.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.paths = append(s.paths, r.URL.Path)
		s.mu.Unlock()
		files.ServeHTTP(w, r)
	})}
	go s.srv.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(s.Close)
	return s
}

// count returns how many requests asked for paths ending in suffix.
func (s *server) count(suffix string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, p := range s.paths {
		if strings.HasSuffix(p, suffix) {
			n++
		}
	}
	return n
}

// Close stops serving: the page is then offline.
func (s *server) Close() { s.srv.Close() }

// page is one Chromium tab on the page.
type page struct {
	t   *testing.T
	ctx context.Context
	// close ends the browser (again is harmless); the test's cleanup calls it.
	close func()
	// profile is the browser's user data folder, new for each page.
	profile string

	mu         sync.Mutex
	exceptions []string
	console    []string
	shots      atomic.Int32
}

// newPage starts headless Chromium with a window of w×h pixels; extra
// options come after the defaults (chromedp.Flag("hide-scrollbars", false)
// gives the page scrollbars that take room, as a desktop browser's do).
// It skips the test when Chromium is not installed.
func newPage(t *testing.T, w, h int, extra ...chromedp.ExecAllocatorOption) *page {
	t.Helper()
	path := chromium()
	if path == "" {
		testenv.MissingTool(t, "Chromium", "apt-get install -y chromium; .ci/run does it")
	}
	// The flags keep Chromium off the network (this machine has none):
	// no background updates, sync, QUIC; a fresh profile every time.
	profile := t.TempDir()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-features", "Translate,MediaRouter,OptimizationHints"),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(w, h),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), append(opts, extra...)...)
	ctx, cancelC := chromedp.NewContext(actx)
	p := &page{t: t, ctx: ctx, close: func() { cancelC(); cancelA() }, profile: profile}
	t.Cleanup(p.close)
	err := chromedp.Listen(ctx, func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
			p.exceptions = append(p.exceptions, fmt.Sprintf("%s (%s:%d)", msg, d.URL, d.LineNumber))
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range ev.Args {
				if a.Value != nil {
					parts = append(parts, string(a.Value))
				} else {
					parts = append(parts, a.Description)
				}
			}
			p.console = append(p.console, string(ev.Type)+": "+strings.Join(parts, " "))
		}
	})
	if err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	return p
}

// checkExceptions fails the test on any uncaught exception in the page.
func (p *page) checkExceptions() {
	p.t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.exceptions {
		p.t.Errorf("page exception: %s", e)
	}
	if len(p.exceptions) > 0 {
		p.t.Logf("console:\n%s", strings.Join(p.console, "\n"))
	}
	p.exceptions = nil
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

func eval[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// patience stretches the deadline of every wait (waitJS, waitText). A
// deadline only bounds a hang: a wait returns as soon as its condition
// holds, so a long one costs nothing while the page works. The timeout a
// test names is what the page takes on an idle machine with room to
// spare; a loaded CI machine runs Chromium and Go several times slower,
// and that must never fail a wait.
const patience = 4

// waitJS waits until the expression is true: up to patience times
// timeout.
func (p *page) waitJS(expr string, timeout time.Duration) {
	p.t.Helper()
	timeout *= patience
	deadline := time.Now().Add(timeout)
	for {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited %s for %s (last error: %v); screen:\n%s\nconsole:\n%s", timeout, expr, err, p.screenQuiet(), strings.Join(p.console, "\n"))
		}
		time.Sleep(15 * time.Millisecond)
	}
}

// load navigates to url and waits for the playground's first frame.
func (p *page) load(url string) {
	p.t.Helper()
	p.do(chromedp.Navigate("about:blank"), chromedp.Navigate(url))
	p.waitJS(`window.__t !== undefined && window.__t.firstFrame !== undefined`, 30*time.Second)
}

func (p *page) screenQuiet() string {
	s, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`window.bufferText ? window.bufferText() : document.body.innerText`))
	return s
}

// screen returns the terminal's text, one line per row.
func (p *page) screen() string {
	p.t.Helper()
	return eval[string](p, `window.bufferText()`)
}

// waitText waits until the screen shows s: up to patience times 15 s.
func (p *page) waitText(s string) string {
	p.t.Helper()
	timeout := patience * 15 * time.Second
	deadline := time.Now().Add(timeout)
	for {
		scr := p.screenQuiet()
		if strings.Contains(scr, s) {
			return scr
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the screen never showed %q in %s; it shows:\n%s", s, timeout, scr)
		}
		time.Sleep(15 * time.Millisecond)
	}
}

// keyNames are the non-printing keys press understands.
var keyNames = map[string]rune{
	"Enter": '\r', "Escape": '\u001b', "ArrowLeft": []rune(kb.ArrowLeft)[0], "ArrowRight": []rune(kb.ArrowRight)[0],
	"ArrowUp": []rune(kb.ArrowUp)[0], "ArrowDown": []rune(kb.ArrowDown)[0], "Tab": '\t',
}

// press types keys: each argument is a key name of keyNames or text.
func (p *page) press(keys ...string) {
	p.t.Helper()
	for _, k := range keys {
		if r, ok := keyNames[k]; ok {
			p.key(r)
			continue
		}
		for _, r := range k {
			p.key(r)
		}
	}
}

// key sends one key as a real keyboard does: a keyDown that carries the
// text, then a keyUp. (chromedp.KeyEvent sends a separate char event too,
// which xterm.js 6 types a second time.)
func (p *page) key(r rune) {
	p.t.Helper()
	var down, up input.DispatchKeyEventParams
	text := ""
	for _, e := range kb.Encode(r) {
		switch e.Type {
		case input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeRawKeyDown:
			down = *e
		case input.DispatchKeyEventTypeChar:
			text = e.Text
		case input.DispatchKeyEventTypeKeyUp:
			up = *e
		}
	}
	down.Type = input.DispatchKeyEventTypeKeyDown
	if text != "" {
		down.Text, down.UnmodifiedText = text, text
	}
	for _, e := range []input.DispatchKeyEventParams{down, up} {
		if _, err := chromedp.Call(p.ctx, input.DispatchKeyEvent, e); err != nil {
			p.t.Fatal(err)
		}
	}
}

// command types a command line after ":" and enter.
func (p *page) command(line string) {
	p.t.Helper()
	p.press(":", line, "Enter")
}

// clickText clicks the middle of the first cell of the first screen row
// that contains s, as a mouse would.
func (p *page) clickText(s string) {
	p.t.Helper()
	type xy struct{ X, Y float64 }
	pos := eval[xy](p, fmt.Sprintf(`(() => {
		const lines = window.bufferText().split('\n');
		const row = lines.findIndex((l) => l.includes(%q));
		const col = lines[row].indexOf(%q);
		const r = document.querySelector('.xterm-screen').getBoundingClientRect();
		return { X: r.left + (col + 0.5) * r.width / term.cols, Y: r.top + (row + 0.5) * r.height / term.rows };
	})()`, s, s))
	p.do(chromedp.MouseClickXY(pos.X, pos.Y))
}

// shot takes a screenshot into the test's temporary folder.
func (p *page) shot(name string) (string, []byte) {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join(p.t.TempDir(), fmt.Sprintf("%02d-%s.png", p.shots.Add(1), name))
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	return path, png
}

func lastRow(screen string) string {
	lines := strings.Split(screen, "\n")
	return lines[len(lines)-1]
}

// worldPane returns the left column of the screen above the timeline: the
// world tree (and the top of the right column's border).
func worldPane(screen string, cols int) string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "Timeline") {
			break
		}
		r := []rune(l)
		out = append(out, string(r[:min(len(r), cols/2)]))
	}
	return strings.Join(out, "\n")
}

// TestPage drives the page as a learner would: load it, build an owner and
// a dependent, delete the owner with Foreground, step and run to the end,
// open the help, click, resize, reload, open a share link, quit, and load
// it again offline. Any page exception fails it.
func TestPage(t *testing.T) {
	p := newPage(t, 1280, 800)
	dir := site(t)
	srv := serve(t, dir)

	// First frame: the starter world, the frame filling the terminal, the
	// loading state gone and the keyboard in the terminal.
	p.load(srv.URL)
	scr := p.screen()
	for _, want := range []string{" gcplay │ step 0", "World · ", "Deployment/web", "Collector", "Timeline · step 0 of 0", "Opened the starter world"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("the first frame does not show %q:\n%s", want, scr)
		}
	}
	if !strings.Contains(lastRow(scr), "? help") {
		t.Errorf("the frame does not fill the terminal: its last row is %q", lastRow(scr))
	}
	if !eval[bool](p, `document.getElementById('overlay').hidden`) {
		t.Errorf("the loading overlay is still shown after the first frame")
	}
	if !eval[bool](p, `document.activeElement === term.textarea`) {
		t.Errorf("the terminal does not have the keyboard after loading")
	}
	cols := eval[int](p, `term.cols`)

	// An owner and a dependent, from the command bar.
	p.command("create cm owner")
	p.waitText("ConfigMap/owner created with uid")
	p.command("create pod dep --owner cm/owner --block")
	p.waitText("Pod/dep created with uid")
	p.press("r")
	scr = p.waitText("settled after 2 steps")
	if !strings.Contains(scr, "└─ Pod/dep [block]") {
		t.Fatalf("the world does not show Pod/dep under its owner:\n%s", scr)
	}

	// Delete the owner with Foreground, step once, then run to the end.
	p.command("delete cm/owner --cascade=foreground")
	scr = p.waitText("ConfigMap/owner terminating {foregroundDeletion}")
	if !strings.Contains(scr, "propagationPolicy=Foreground") {
		t.Errorf("the timeline does not show the Foreground delete:\n%s", scr)
	}
	p.press("s")
	p.waitText(" gcplay │ step 6 ")
	shotPath, png := p.shot("foreground")
	t.Logf("screenshot: %s", shotPath)
	if *screenshot != "" {
		if err := os.WriteFile(*screenshot, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p.press("r")
	scr = p.waitText("settled after")
	if w := worldPane(scr, cols); strings.Contains(w, "ConfigMap/owner") || strings.Contains(w, "Pod/dep") {
		t.Errorf("the owner or its dependent is still in the world after the run:\n%s", w)
	}
	settled := strings.Split(scr, "\n")[0]

	// Help opens and closes; a click selects.
	p.press("?")
	p.waitText("Step the collector")
	p.press("Escape")
	p.waitJS(`!window.bufferText().includes('Step the collector')`, 5*time.Second)
	p.clickText("StatefulSet/db")
	p.waitText("Inspector · StatefulSet/db")

	// Resize: the program gets the new size and fills it.
	p.do(chromedp.EmulateViewport(1500, 950))
	p.waitJS(fmt.Sprintf(`term.cols > %d`, cols), 10*time.Second)
	p.waitJS(`(() => { const l = window.bufferText().split('\n'); return l[l.length-1].includes('? help') && l[0].includes('gcplay │') && (l.find((x) => x.includes('─ Timeline')) || '').length === term.cols })()`, 10*time.Second)

	// Reload: the world and its timeline come back, from the address bar
	// and, with a bare address, from localStorage; so do breakpoints,
	// which change the link without changing the world.
	p.waitJS(`window.__t.saved > 0 && location.hash.startsWith('#s=')`, 10*time.Second)
	noBreaks := eval[string](p, `location.hash`)
	p.command("break orphan")
	p.waitText("breakpoint set: autoplay and run stop when attemptToOrphan")
	p.waitJS(fmt.Sprintf(`location.hash !== %q`, noBreaks), 10*time.Second)
	link := eval[string](p, `location.hash`)
	p.do(chromedp.Reload())
	p.waitJS(`window.__t !== undefined && window.__t.firstFrame !== undefined`, 30*time.Second)
	scr = p.waitText("Welcome back")
	if got := strings.TrimSpace(strings.Split(scr, "\n")[0]); !strings.HasPrefix(got, strings.TrimSpace(settled)) || !strings.HasSuffix(got, "●orphan") {
		t.Errorf("after a reload the status line is\n%q, want\n%q and the orphan breakpoint's mark", got, settled)
	}
	p.command("break list")
	p.waitText("breakpoints: attemptToOrphan gets an item")
	p.load(srv.URL)
	scr = p.waitText("Welcome back")
	if !strings.Contains(scr, "Timeline · step 11 of 11") {
		t.Errorf("a bare address did not bring the timeline back from localStorage:\n%s", scr)
	}

	// A share link, in another browser that has a world of its own.
	p2 := newPage(t, 1280, 800)
	p2.load(srv.URL)
	p2.waitText(" gcplay │ step")
	before := eval[string](p2, `location.hash`)
	p2.command("create cm mine")
	p2.waitText("ConfigMap/mine created with uid")
	p2.waitJS(fmt.Sprintf(`location.hash !== %q && localStorage.getItem('gcplay.world') === location.hash.slice(3)`, before), 10*time.Second)
	if !eval[bool](p2, `document.getElementById('back').hidden`) {
		t.Errorf("the Back to my world button shows before any link was opened")
	}
	p2.load(srv.URL + link)
	scr = p2.waitText("Opened a shared world")
	if !strings.Contains(scr, "Timeline · step 11 of 11") || !strings.Contains(scr, strings.TrimSpace(settled)) {
		t.Errorf("the share link did not restore the world:\n%s", scr)
	}
	p2.press("ArrowLeft")
	p2.waitText("Timeline · step 10 of 11")
	// Its own world was set aside, not lost: the button brings it back.
	p2.waitJS(`!document.getElementById('back').hidden`, 5*time.Second)
	eval[bool](p2, `(document.getElementById('back').click(), true)`)
	scr = p2.waitText("Welcome back")
	if !strings.Contains(scr, "ConfigMap/mine") {
		t.Errorf("Back to my world did not bring the learner's own world back:\n%s", scr)
	}
	p2.waitJS(`document.getElementById('back').hidden && localStorage.getItem('gcplay.world.before-link') === null`, 5*time.Second)

	// A lesson by link: the lesson pane beside the playground; the address
	// bar keeps naming the lesson, so a reload reopens it.
	p2.load(srv.URL + "#lesson=foreground")
	p2.waitText("Lesson 3")
	p2.waitJS(`location.hash === '#lesson=foreground'`, 10*time.Second)
	p2.do(chromedp.Reload())
	p2.waitJS(`window.__t !== undefined && window.__t.firstFrame !== undefined`, 30*time.Second)
	p2.waitText("Lesson 3")
	p2.checkExceptions()

	// Quit (the command: no key quits in the page): the page says so, and
	// no late timer throws.
	p.command("quit")
	p.waitJS(`window.__t.exited === 'ok'`, 10*time.Second)
	time.Sleep(1200 * time.Millisecond)
	if !eval[bool](p, `document.getElementById('overlay-title').textContent.includes('quit')`) {
		t.Errorf("the page does not say that gcplay quit")
	}

	// Offline: the service worker's copy opens the page with no server.
	p.waitJS(`navigator.serviceWorker.controller !== null`, 20*time.Second)
	srv.Close()
	p.load(srv.URL)
	p.waitText(" gcplay │ step")

	p.checkExceptions()
}

// TestBrokenWasm: when main.wasm cannot be loaded, the page says so
// plainly instead of spinning.
func TestBrokenWasm(t *testing.T) {
	p := newPage(t, 1000, 700)
	dir := t.TempDir()
	good := site(t)
	for _, f := range []string{"index.html", "main.js", "style.css", "wasm_exec.js", "sw.js", "xterm/xterm.mjs", "xterm/xterm.css", "xterm/addon-fit.mjs"} {
		b, err := os.ReadFile(filepath.Join(good, f))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wasm, err := website.WasmName(good)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, wasm), []byte("not wasm"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, dir)
	p.do(chromedp.Navigate(srv.URL))
	p.waitJS(`window.__t !== undefined && window.__t.failed !== undefined`, 20*time.Second)
	title := eval[string](p, `document.getElementById('overlay-title').textContent`)
	if title != "The playground could not be loaded" {
		t.Errorf("overlay title %q", title)
	}
	if !eval[bool](p, `!document.getElementById('overlay').hidden && !document.getElementById('again').hidden`) {
		t.Errorf("the error is not shown with a way to try again")
	}
	p.checkExceptions()
}
