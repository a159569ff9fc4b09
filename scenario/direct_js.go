//go:build js

package scenario

// directDecoding is off in the browser build: there every entry is read
// through its tree and the checks, which give the same objects (as
// TestDumpDirectMatchesTree shows), and the direct decoder's code is left
// out of main.wasm, whose size every first visit to the page pays for.
// A dump opened in the page reads slower; a large one is for gcplay in a
// terminal.
const directDecoding = false
