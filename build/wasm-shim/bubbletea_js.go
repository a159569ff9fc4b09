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
// It also adds Program.FlushFrame (at the end), which the page uses to
// draw a key's frame at once. Once the pinned version compiles for js on
// its own, the platform functions go; FlushFrame would then need another
// home (or the page goes back to waiting for the renderer's tick).

package tea

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
	if r, ok := p.renderer.(*cursedRenderer); ok {
		r.mu.Lock()
		if r.scr != nil {
			r.scr.SetScrollOptim(false)
		}
		r.mu.Unlock()
	}
	_ = p.flush()
	_ = p.renderer.flush(false)
}
