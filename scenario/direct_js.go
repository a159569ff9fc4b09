//go:build js

package scenario

import "math"

// directDecoding is off in the browser build: there every entry is read
// through its tree and the checks, which give the same objects (as
// TestDumpDirectMatchesTree shows), and the direct decoder's code is left
// out of main.wasm, whose size every first visit to the page pays for.
// A dump opened in the page reads slower; a large one is for gcplay in a
// terminal.
const directDecoding = false

// The parallel decoding of entries (dumpparallel.go) is direct decoding
// too, and left out in the same way: the browser build has one thread.
// What the reading refers to of it is here, and does nothing.
type predecoder struct{}

func cutPredecode([]byte, int, int) *predecoder                       { return nil }
func (*predecoder) start() *predecoder                                { return nil }
func closePredecode(*predecoder)                                      {}
func takeDecoded(*dumpReader, int, *fastYAML, int) (took, found bool) { return false, false }
func (*predecoder) readFrom() int                                     { return math.MaxInt }

// cutDocument is cutDocumentByLines here: the other builds search for the
// lines that start with "---" (dumpparallel.go), the same cut in more code.
func cutDocument(data []byte) (doc, rest []byte, lines int) {
	return cutDocumentByLines(data)
}
