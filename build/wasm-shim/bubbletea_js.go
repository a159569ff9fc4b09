//go:build js

// This file is gcplay's own, not Bubble Tea's. build.sh copies it into a
// private copy of the pinned charm.land/bubbletea/v2 module (in the
// git-ignored build/wasm/ area) when the browser build is made; it is never
// compiled as part of gcplay itself.
//
// Bubble Tea defines these four platform functions only for an explicit
// list of Unix systems (tty_unix.go, signals_unix.go) and for Windows, so
// GOOS=js does not compile (upstream issue charmbracelet/bubbletea#1410,
// pull requests #1789 and #1790). In the browser there is no TTY to put in
// raw mode, no process to suspend and no SIGWINCH: the page's bridge passes
// its own input reader and sends tea.WindowSizeMsg itself.
//
// It also adds Program.StartInput, which starts the input reader that the
// browser build's Run leaves waiting (build.sh edits Run to call
// initInputReaderLater), Program.FlushFrame, which the page uses to draw a key's
// frame at once, and Program.DrawFramesWith, a renderer that writes the
// first frame's lines, and a later frame's changed lines, to the terminal
// itself when it can (FrameWriter), or else parses only a frame's changed
// lines into its cells (at the end). Once the pinned
// version compiles for js on its own, the platform functions go; FlushFrame
// and DrawFramesWith would then need another home (or the page goes back to
// waiting for the renderer's tick and parsing whole frames).

package tea

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// initInput has nothing to do in a browser: the input is the page's
// queue, never a terminal.
func (p *Program) initInput() error { return nil }

// suspendSupported is false: a page cannot be suspended with ctrl+z.
const suspendSupported = false

// suspendProcess is never called, as suspendSupported is false.
func suspendProcess() {}

// listenForResize has no signal to listen to: the page sends
// WindowSizeMsg when the xterm.js terminal is resized.
func (p *Program) listenForResize(done chan struct{}) { close(done) }

// The input reader's start: the program whose Run has reached it
// (inputWaiting), and one for which StartInput was called (inputWanted).
// The page runs one program.
var (
	inputMu                   sync.Mutex
	inputWaiting, inputWanted *Program
)

// initInputReaderLater is what the browser build's Run calls where Bubble
// Tea's calls initInputReader (build.sh edits tea.go): the reader starts
// when StartInput is called, or now if it already was. Making the reader
// builds ultraviolet's table of key sequences (buildKeysTable, one
// large function filling a map of hundreds of entries), code the
// browser compiles on first call, while the page draws nothing until the
// first frame and holds its input until then (web/main.js).
func (p *Program) initInputReaderLater() error {
	inputMu.Lock()
	defer inputMu.Unlock()
	if inputWanted == p {
		return p.initInputReader(false)
	}
	inputWaiting = p
	return nil
}

// StartInput starts reading the program's input, which Run in the browser
// build does not do itself (initInputReaderLater). The page calls it once
// its first frame is drawn; calls after the first, and a call once the
// program is shutting down, do nothing. An error in starting the reader
// ends Run with it, as it would have at Run's start.
func (p *Program) StartInput() {
	inputMu.Lock()
	defer inputMu.Unlock()
	if inputWanted == p || p.ctx.Err() != nil {
		return
	}
	inputWanted = p
	if inputWaiting != p {
		return // Run starts it when it gets there
	}
	if err := p.initInputReader(false); err != nil {
		select {
		case p.errs <- err:
		default:
		}
	}
}

// FlushFrame writes the latest view now, as the renderer's next frame
// tick would. The page calls it (through wasm/main.go's goFlush) right
// after handing the program a key: Go runs every goroutine until all are
// blocked before a call from JavaScript returns, so by then the key has
// been read, the model updated and its view taken, and the frame that
// shows the key goes out at once instead of up to a tick (1/fps) later,
// on a browser timer. It does what a tick does, under the same locks;
// with nothing new it writes nothing. Once the program is shutting down
// it does nothing.
//
// It also turns the renderer's scroll optimisation off (the renderer's
// reset turns it on again at a resize, which the page follows with a
// FlushFrame): finding lines that moved costs a hash of every line of
// every frame, and a region scrolled in the terminal makes xterm.js's DOM
// renderer draw the whole region again, where rewriting the few lines
// that changed costs it only those (docs/BENCHMARKS.md, Browser).
func (p *Program) FlushFrame() {
	if p.renderer == nil || p.ctx.Err() != nil {
		return
	}
	r, ok := p.renderer.(*cursedRenderer)
	if l, isLines := p.renderer.(*lineRenderer); isLines {
		r, ok = l.cursedRenderer, true
	}
	if ok {
		r.mu.Lock()
		if r.scr != nil {
			r.scr.SetScrollOptim(false)
		}
		r.mu.Unlock()
	}
	_ = p.flush()
	_ = p.renderer.flush(false)
}

// FrameDrawer draws a frame's content into the renderer's cell buffer, by
// lines (gcplay's internal/framelines). Draw reports false, having changed
// nothing, when it cannot draw this frame so; the renderer then draws it
// whole, as Bubble Tea does, and calls Drawn. Forget says the buffer no
// longer holds what was last drawn.
type FrameDrawer interface {
	Draw(buf uv.ScreenBuffer, content string) bool
	Drawn(content string, height int)
	Forget()
}

// FrameWriter is a FrameDrawer that can also write a frame's changed lines
// to the terminal itself, without the cell buffer (internal/framelines):
// Write appends the bytes that bring a terminal w×h showing the frame last
// drawn or written to content, leaving the cursor home, or reports false,
// having written nothing. After a frame so written, the cell buffer and the
// screen writer's model of the screen are behind the terminal: the next
// frame Write does not take is drawn whole onto an erased screen.
type FrameWriter interface {
	FrameDrawer
	Write(dst []byte, content string, w, h int, m uv.WidthMethod) ([]byte, bool)
	// Erased says the terminal shows an erased screen height lines high
	// and the cell buffer nothing drawn: the next Write writes the whole
	// frame (Write's lines that are not empty).
	Erased(height int)
}

// DrawFramesWith makes the program's renderer Bubble Tea's own with two
// changes. The first frame, when it is on the alternate screen with the
// cursor hidden and d is a FrameWriter that takes it onto an erased
// screen, is written by its lines after what Bubble Tea's flush writes for
// the same frame without content (the modes, the alternate screen entered
// and erased), in the same write. And a frame that differs from the last
// only in its content (and the cursor's place), on the alternate screen, is
// written to the terminal by d's changed lines when d is a FrameWriter that
// takes it, or else drawn into the cell buffer by d instead of by clearing
// the buffer and parsing the whole frame into it; the cell diff, the cursor
// and the bytes written are then the same code's. Any other frame (a first
// frame not written so, a resize, a clear, a change of mode, title,
// colours or cursor shape, the last one) goes through Bubble Tea's flush
// unchanged. Call it after NewProgram, before Run; it builds the
// renderer as Run would for a program whose input is not a terminal.
func (p *Program) DrawFramesWith(d FrameDrawer) {
	r := newCursedRenderer(p.output, p.environ, p.width, p.height)
	r.setLogger(p.logger)
	r.setNoInput(p.disableInput)
	r.setOptimizations(p.useHardTabs, p.useBackspace, true)
	p.renderer = &lineRenderer{cursedRenderer: r, d: d}
}

// lineRenderer is Bubble Tea's renderer drawing frames through a
// FrameDrawer (see DrawFramesWith).
type lineRenderer struct {
	*cursedRenderer
	d FrameDrawer
	// written: a frame went to the terminal through FrameWriter, so the
	// cell buffer and the screen writer's model are behind the screen.
	written bool
	lines   []byte // FrameWriter's output, reused
}

var _ renderer = &lineRenderer{}

// flush implements renderer.
func (l *lineRenderer) flush(closing bool) error {
	if done, err := l.flushFirst(closing); done {
		return err
	}
	s := l.cursedRenderer
	s.mu.Lock()
	done, err := l.flushLines(closing)
	s.mu.Unlock()
	if done {
		return err
	}
	s.mu.Lock()
	if l.written {
		// The screen writer's model is behind the screen: it repaints
		// the whole screen from its cleared state.
		s.scr.Erase()
		l.written = false
	}
	s.mu.Unlock()
	err = s.flush(closing)
	s.mu.Lock()
	if lv := s.lastView; err == nil && lv != nil && lv.AltScreen && len(lv.Content) > 0 &&
		s.cellbuf.Bounds() == uv.Rect(0, 0, s.width, s.height) {
		l.d.Drawn(lv.Content, s.height)
	} else {
		l.d.Forget()
	}
	s.mu.Unlock()
	return err
}

// flushFirst writes the program's first frame by lines (see
// DrawFramesWith); it reports false, having done nothing, for any other
// frame and for a first frame the FrameWriter does not take. Parsing the
// whole frame into the cell buffer and rendering the cells was code the
// browser compiles on first call (ultraviolet's parser and renderer),
// for the one frame before the page shows anything; later frames mostly
// go by lines. Bubble Tea's flush still writes everything but the frame's
// content, from the same view, so the terminal's modes are the same; the
// cell buffer is then behind the screen, as after any frame written by
// lines, and the next frame not written so is drawn whole onto an erased
// screen. (The page's Go has one thread: no view comes in between the
// unlock below and flush's lock.)
func (l *lineRenderer) flushFirst(closing bool) (bool, error) {
	s := l.cursedRenderer
	fw, isWriter := l.d.(FrameWriter)
	s.mu.Lock()
	view := s.view
	if !isWriter || closing || !s.starting || s.lastView != nil || !view.AltScreen || view.Cursor != nil || len(view.Content) == 0 {
		s.mu.Unlock()
		return false, nil
	}
	fw.Erased(s.height)
	lines, wrote := fw.Write(l.lines[:0], view.Content, s.width, s.height, s.cellbuf.WidthMethod())
	l.lines = lines
	if !wrote {
		fw.Forget()
		s.mu.Unlock()
		return false, nil
	}
	out, blank := s.w, view
	blank.Content = ""
	var first bytes.Buffer
	s.view, s.w = blank, &first
	s.mu.Unlock()
	err := s.flush(false)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w, s.view = out, view
	if err != nil {
		fw.Forget()
		return true, err
	}
	// The lines leave the cursor home (and the style reset).
	first.Write(l.lines)
	s.scr.SetPosition(0, 0)
	last := view
	s.lastView = &last
	// A frame without content sized the cell buffer to no lines.
	s.cellbuf.Touched = nil
	s.cellbuf.Resize(s.width, s.height)
	l.written = true
	if s.logger != nil {
		s.logger.Printf("output: %q", l.lines)
	}
	if _, err := io.Copy(out, &first); err != nil {
		return true, fmt.Errorf("bubbletea: error flushing update to the writer: %w", err)
	}
	return true, nil
}

// flushLines is the renderer's flush for a frame that changed only in its
// content or its cursor's place; it reports false, having done nothing,
// for any other. s.mu is held.
func (l *lineRenderer) flushLines(closing bool) (bool, error) {
	s := l.cursedRenderer
	view, last := s.view, s.lastView
	if closing || s.starting || s.pendingErase || last == nil || !view.AltScreen || len(view.Content) == 0 ||
		s.cellbuf.Bounds() != uv.Rect(0, 0, s.width, s.height) {
		return false, nil
	}
	same := view
	same.Content = last.Content
	if (same.Cursor == nil) != (last.Cursor == nil) {
		return false, nil
	}
	if same.Cursor != nil {
		c := *same.Cursor
		c.X, c.Y = last.Cursor.X, last.Cursor.Y
		same.Cursor = &c
	}
	if !viewEquals(&same, last) {
		return false, nil
	}
	if viewEquals(&view, last) {
		return true, nil // no changes, as flush
	}
	wrote := false
	if view.Content != last.Content {
		if fw, ok := l.d.(FrameWriter); ok {
			if err := s.scr.Flush(); err != nil { // what the screen writer holds goes first
				l.d.Forget()
				return true, fmt.Errorf("bubbletea: error flushing screen writer: %w", err)
			}
			l.lines, wrote = fw.Write(l.lines[:0], view.Content, s.width, s.height, s.cellbuf.WidthMethod())
		}
		if wrote {
			// The lines leave the cursor home (and the style reset, as
			// the renderer leaves it).
			s.buf.Write(l.lines)
			s.scr.SetPosition(0, 0)
			l.written = true
		} else if l.written || !l.d.Draw(s.cellbuf, view.Content) {
			return false, nil
		}
	}

	if !wrote {
		s.scr.Render(s.cellbuf.RenderBuffer)
	}
	if cur := view.Cursor; cur != nil {
		s.scr.MoveTo(cur.X, cur.Y)
	}
	if err := s.scr.Flush(); err != nil {
		l.d.Forget()
		return true, fmt.Errorf("bubbletea: error flushing screen writer: %w", err)
	}

	// As flush writes the updates when neither the alternate screen nor
	// the cursor's visibility changes.
	hasUpdates := s.buf.Len() > 0
	showCursor := view.Cursor != nil
	var buf bytes.Buffer
	if hasUpdates {
		if s.syncdUpdates {
			buf.WriteString(ansi.SetModeSynchronizedOutput)
		} else if showCursor {
			buf.WriteString(ansi.ResetModeTextCursorEnable)
		}
		buf.Write(s.buf.Bytes())
		if s.syncdUpdates {
			buf.WriteString(ansi.ResetModeSynchronizedOutput)
		} else if showCursor {
			buf.WriteString(ansi.SetModeTextCursorEnable)
		}
	}
	s.buf.Reset()
	if buf.Len() > 0 {
		if s.logger != nil {
			s.logger.Printf("output: %q", buf.String())
		}
		if _, err := io.Copy(s.w, &buf); err != nil {
			return true, fmt.Errorf("bubbletea: error flushing update to the writer: %w", err)
		}
	}
	s.lastView = &view
	return true, nil
}

// reset implements renderer: the new screen writer knows nothing drawn.
func (l *lineRenderer) reset() {
	l.cursedRenderer.reset()
	l.mu.Lock()
	l.written = false // a new screen writer, which knows nothing drawn
	l.d.Forget()
	l.mu.Unlock()
}

// close implements renderer: it resets the screen writer.
func (l *lineRenderer) close() error {
	err := l.cursedRenderer.close()
	l.mu.Lock()
	l.written = false // close resets the screen writer
	l.d.Forget()
	l.mu.Unlock()
	return err
}

// setWidthMethod implements renderer: cells are measured another way.
func (l *lineRenderer) setWidthMethod(m ansi.Method) {
	l.cursedRenderer.setWidthMethod(m)
	l.mu.Lock()
	l.d.Forget()
	l.mu.Unlock()
}
