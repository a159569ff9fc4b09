//go:build js

package scenario

import "bytes"

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

func startPredecode([]byte, int) *predecoder                          { return nil }
func closePredecode(*predecoder)                                      {}
func takeDecoded(*dumpReader, int, *fastYAML, int) (took, found bool) { return false, false }

// cutDocument is the walk over every line of the text that the other
// builds leave for a search of the lines that start with "---"
// (dumpparallel.go): the same cut, in less code.
func cutDocument(data []byte) (doc, rest []byte, lines int) {
	off := 0
	for off < len(data) {
		end := bytes.IndexByte(data[off:], '\n')
		lineEnd := len(data)
		if end >= 0 {
			lineEnd = off + end
		}
		l := bytes.TrimRight(data[off:lineEnd], " \r")
		lines++
		if string(l) == "---" {
			if lineEnd == len(data) {
				return data[:off], []byte{}, lines
			}
			return data[:off], data[lineEnd+1:], lines
		}
		if end < 0 {
			break
		}
		off = lineEnd + 1
	}
	return data, nil, lines
}
