//go:build js && wasm

// Command wasm is gcplay in a browser: the terminal playground (package
// tui, the same model as the terminal build) running in WebAssembly and
// drawing into an xterm.js terminal on the page (web/index.html).
//
// The page starts first: it creates the terminal, defines goTermWrite and
// the other callbacks below, reads the URL fragment and localStorage into
// window.gcplayBoot, and then runs this program. Keys, mouse reports and
// xterm's replies to terminal queries come in through goTermInput; output
// goes out as bytes through goTermWrite; a resize of the terminal comes in
// as goTermResize. Build it with build/wasm-shim/build.sh (make web).
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/gcplay/gcplay/internal/framelines"
	"github.com/gcplay/gcplay/internal/i18n"
	"github.com/gcplay/gcplay/internal/locale"
	"github.com/gcplay/gcplay/tui"
	"github.com/gcplay/gcplay/wasm/idlegc"
)

// pageTheme is the playground's theme on the page: the terminal's
// background is dark (web/main.js sets it), so there is nothing to ask.
const pageTheme = tui.ThemeDark

// startupGCDelay is the longest garbage collection stays off at startup,
// should the page never report its first frame.
const startupGCDelay = 5 * time.Second

// runGCPercent is the GC's pace once started (GOGC; Go's default is 100).
// In WebAssembly the collector has no thread of its own: a cycle's marking
// is done by the allocating code itself (assists) and its write barriers
// stay on for the whole cycle, hundreds of ms over many keys, slowing every
// frame drawn meanwhile (the renderer copies cells, which holds pointers).
// Fewer cycles leave most keys outside one, for a larger heap goal. The
// figures are in docs/BENCHMARKS.md, "Issue 19: where a key's Go time goes
// in wasm".
const runGCPercent = 400

// idleGCDelay is how long the page must be quiet (no key, no frame written)
// before package idlegc may collect: a pause in a person's typing, longer
// than the gap between a held key's repeats or quick presses (measured in
// docs/BENCHMARKS.md, "Issue 19, ninth session: the page's collections
// moved out of the keys"), so that the collection does not delay the next
// key.
const idleGCDelay = 100 * time.Millisecond

func main() {
	win := js.Global()
	// Timing marks beside the page's own (window.__t), for the benchmark.
	mark := func(k string) { win.Get("__t").Set(k, win.Get("performance").Call("now")) }
	mark("goMain")
	// No garbage collection until the first frame is on the screen (or for
	// startupGCDelay at most): starting allocates a few MB, and a collection
	// then costs far more than the memory, as its write barriers slow
	// everything the model does while it marks (about 150 ms of a cold
	// start). The page calls goStarted at its first frame.
	debug.SetGCPercent(-1)
	var gcOnce sync.Once
	// Collections while the page is quiet, from its first frame on; each
	// one's time goes into window.__t.idleGC (ms), for the benchmark.
	idle := idlegc.New(idleGCDelay, runGCPercent, func(d time.Duration) {
		t := win.Get("__t")
		if t.Get("idleGC").IsUndefined() {
			t.Set("idleGC", js.Global().Get("Array").New())
		}
		t.Get("idleGC").Call("push", float64(d.Microseconds())/1e3)
	})
	var started atomic.Bool
	poke := func() {
		if started.Load() {
			idle.Poke()
		}
	}
	restoreGC := func() {
		gcOnce.Do(func() {
			debug.SetGCPercent(runGCPercent)
			started.Store(true)
		})
	}
	time.AfterFunc(startupGCDelay, restoreGC)
	term := win.Get("term")
	cols, rows := term.Get("cols").Int(), term.Get("rows").Int()

	files := newWebFiles()
	boot := win.Get("gcplayBoot")
	str := func(k string) string {
		if v := boot.Get(k); v.Type() == js.TypeString {
			return v.String()
		}
		return ""
	}
	// The page's language: its switch's choice, else navigator.language
	// (zh-CN, zh-TW, en-US ...); English when gcplay does not speak it.
	lang, _ := locale.Pick("", func(k string) string {
		if k == "LANG" {
			return str("lang")
		}
		return ""
	}, i18n.Langs())
	m, err := tui.New(tui.Options{Theme: pageTheme, Files: files, Width: cols, Height: rows, Lang: lang, NoQuitKey: true})
	if err != nil {
		win.Call("onGoExit", "gcplay could not start: "+err.Error())
		select {}
	}
	mark("goModel")
	m.AddCourseHelp()
	a := &app{top: m, m: m, files: files, width: cols, height: rows, lang: lang}
	a.trackOrigin()
	a.version = m.Version()

	link, lesson, saved, savedLesson := str("link"), str("lesson"), str("saved"), str("savedLesson")
	switch {
	case link != "" && link == saved:
		// A reload: the address bar links to the world kept here.
		a.openLink(saved, "saved")
	case link != "":
		if err := a.openLink(link, "link"); err == nil {
			a.persist()
		} else {
			// The learner's own world stays (or the starter, with none),
			// with the reason; the address bar then links to what is shown.
			msg := fmt.Sprintf("The link in the address bar could not be opened: %v.", err)
			if saved != "" && a.openLink(saved, "saved") == nil {
				msg += " Your own world is below, as you left it."
			}
			m.Notify(msg, true)
			a.version = -1
		}
	case lesson != "":
		a.openLesson(lesson, savedLesson)
	case saved != "":
		a.openLink(saved, "saved")
	}
	if a.version == -1 {
		a.persist() // a lesson: its name goes into the address bar
	}
	a.version = a.m.Version()

	q := newInputQueue()
	p := tea.NewProgram(a,
		tea.WithInput(q),
		tea.WithOutput(termWriter{write: win.Get("goTermWrite"), wrote: poke}),
		tea.WithWindowSize(cols, rows),
		tea.WithEnvironment([]string{"TERM=xterm-256color", "COLORTERM=truecolor"}),
		tea.WithColorProfile(colorprofile.TrueColor),
		tea.WithoutSignalHandler(),
		tea.WithFilter(sizeFilter(cols, rows)),
		// Keys, the mouse and resizes are drawn at once (goFlush); the
		// renderer's tick only draws what changes on its own (play, a
		// command from a button). Each tick wakes Go even when nothing
		// changed, so an idle tab costs CPU in proportion: 60 a second is
		// a display's rate and half of what it was.
		tea.WithFPS(60),
	)

	// A key's frame is written to the terminal by its changed lines, or,
	// when it cannot be (characters the width models may disagree on),
	// parsed into the renderer's cells only where its lines changed
	// (docs/BENCHMARKS.md, "Issue 19, twelfth session" and "thirteenth
	// session").
	lines := &framelines.Lines{}
	p.DrawFramesWith(lines)

	send := func(msg tea.Msg) { go p.Send(msg) } // Send blocks until the loop takes it
	funcs := map[string]js.Func{
		"goTermInput": js.FuncOf(func(_ js.Value, args []js.Value) any {
			p.StartInput() // when goStartInput did not come first
			q.Push(bytesOf(args[0]))
			poke()
			return nil
		}),
		// goStartInput starts the program's reading of its input (the
		// page calls it once the first frame is drawn): making the reader
		// (its table of key sequences) was work before the first frame
		// while the page holds the input until then.
		"goStartInput": js.FuncOf(func(js.Value, []js.Value) any {
			p.StartInput()
			return nil
		}),
		// goFlush writes the frame now (the page calls it after goTermInput
		// and goTermResize), instead of at the renderer's next tick.
		"goFlush": js.FuncOf(func(js.Value, []js.Value) any {
			p.FlushFrame()
			return nil
		}),
		"goTermResize": js.FuncOf(func(_ js.Value, args []js.Value) any {
			send(tea.WindowSizeMsg{Width: args[0].Int(), Height: args[1].Int()})
			return nil
		}),
		"goCommand": js.FuncOf(func(_ js.Value, args []js.Value) any {
			send(commandMsg{line: args[0].String()})
			return nil
		}),
		// goOpenLink(text[, "saved"]) opens a share link's text; "saved"
		// says it is the learner's own world coming back.
		"goOpenLink": js.FuncOf(func(_ js.Value, args []js.Value) any {
			from := "link"
			if len(args) > 1 && args[1].Type() == js.TypeString && args[1].String() == "saved" {
				from = "saved"
			}
			send(openLinkMsg{text: args[0].String(), from: from})
			return nil
		}),
		"goOpenLesson": js.FuncOf(func(_ js.Value, args []js.Value) any {
			send(openLessonMsg{name: args[0].String()})
			return nil
		}),
		// The course buttons: the lesson picker, the next lesson, the
		// lesson back at its start; goCourse says where the learner stands
		// (JSON), read when nothing runs in Go (as goLink below).
		"goOpenCourse": js.FuncOf(func(js.Value, []js.Value) any {
			send(courseMsg{what: "open"})
			return nil
		}),
		"goNextLesson": js.FuncOf(func(js.Value, []js.Value) any {
			send(courseMsg{what: "next"})
			return nil
		}),
		"goRestartLesson": js.FuncOf(func(js.Value, []js.Value) any {
			send(courseMsg{what: "restart"})
			return nil
		}),
		"goCourse": js.FuncOf(func(js.Value, []js.Value) any {
			b, err := json.Marshal(a.courseState())
			if err != nil {
				return nil
			}
			return string(b)
		}),
		// goFramesWritten says how many frames went to the terminal as
		// lines (framelines.Lines.Write), for the page's tests.
		"goFramesWritten": js.FuncOf(func(js.Value, []js.Value) any {
			return lines.Written
		}),
		"goStarted": js.FuncOf(func(js.Value, []js.Value) any {
			restoreGC()
			return nil
		}),
		// goLink returns the share link now (the page asks for it when it
		// is hidden or closed, so nothing waits on the write delay). JS
		// calls Go only while every goroutine is blocked, so the model is
		// not in the middle of an update.
		"goLink": js.FuncOf(func(js.Value, []js.Value) any {
			text, err := a.link()
			if err != nil {
				return nil
			}
			return []any{text, a.lessonID()}
		}),
	}
	for name, f := range funcs {
		win.Set(name, f)
	}
	win.Call("onGoReady", cols, rows)

	_, err = p.Run()
	restoreGC()
	idle.Stop()

	q.Close()
	a.persist()
	for name, f := range funcs {
		win.Delete(name)
		f.Release()
	}
	var reason any // null: quit normally
	if err != nil && !errors.Is(err, tea.ErrInterrupted) {
		reason = err.Error()
	}
	win.Call("onGoExit", reason)
	// Do not return: Bubble Tea leaves timers whose callbacks would find
	// the program gone ("Go program has already exited").
	select {}
}
