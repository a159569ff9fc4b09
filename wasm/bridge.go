//go:build js && wasm

package main

import (
	"io"
	"sync"
	"syscall/js"
)

// inputQueue is the program's input: the page pushes what xterm.js
// produces (keys, mouse reports, replies to terminal queries) and Bubble
// Tea's reader goroutine blocks in Read until there is some. Push never
// blocks: it runs inside a js.FuncOf callback, which must return before
// any goroutine can run.
type inputQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	closed bool
}

func newInputQueue() *inputQueue {
	q := &inputQueue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Push appends b to the queue and wakes the reader.
func (q *inputQueue) Push(b []byte) {
	q.mu.Lock()
	q.buf = append(q.buf, b...)
	q.mu.Unlock()
	q.cond.Signal()
}

// Read waits for input, then copies as much as fits into p.
func (q *inputQueue) Read(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.buf) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, q.buf)
	q.buf = q.buf[n:]
	return n, nil
}

// Close ends the input: Read returns io.EOF once the queue is drained.
func (q *inputQueue) Close() error {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
	return nil
}

// termWriter is the program's output: each write goes to the page's
// goTermWrite as bytes (a Uint8Array), so xterm.js's streaming UTF-8
// decoder handles a character split across two writes. wrote, when set,
// is called after each write.
type termWriter struct {
	write js.Value
	wrote func()
}

func (w termWriter) Write(p []byte) (int, error) {
	u8 := js.Global().Get("Uint8Array").New(len(p))
	js.CopyBytesToJS(u8, p)
	w.write.Invoke(u8)
	if w.wrote != nil {
		w.wrote()
	}
	return len(p), nil
}

// bytesOf returns the bytes of a JS string (as UTF-8) or of a Uint8Array
// (as they are: xterm's onBinary data keeps bytes >= 0x80 raw).
func bytesOf(v js.Value) []byte {
	if v.Type() == js.TypeString {
		return []byte(v.String())
	}
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b
}

// toJS copies b into a new Uint8Array.
func toJS(b []byte) js.Value {
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	return u8
}
