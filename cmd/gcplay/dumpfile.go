package main

import (
	"os"

	"github.com/gcplay/gcplay/scenario"
)

// dumpText is a dump's text as read from its file, and how to give its
// memory back once the dump is parsed.
type dumpText struct {
	data []byte
	// free returns data's memory (nil: the heap's collector does);
	// data must not be used after it.
	free func()
	// release, when not nil, gives back the memory of the text the
	// dump's reader has read, as it reads (giveBack).
	release *scenario.TextRelease
}

// parse parses t as ParseFile does, giving back the text read as it goes
// where t can.
func (t dumpText) parse(file string) (*scenario.Scenario, error) {
	return scenario.ParseFileReleasing(file, t.data, t.release)
}

// parsedDump gives t's memory back once s is parsed from it, when s is a
// dump: a parsed dump keeps nothing of its text
// (scenario.TestParsedDumpKeepsNoText). A scenario file's text, or one
// that did not parse, is left to the end of the process.
func (t dumpText) parsedDump(s *scenario.Scenario) {
	if t.free != nil && s != nil && len(s.Restore) > 0 {
		t.free()
	}
}

// offHeapMin is the size from which a dump's text is held outside Go's
// heap (readDumpText), where a copy on the heap would count in the
// collector's goal.
const offHeapMin = 4 << 20

// readDumpText reads a dump's file. A large file's text is held outside
// Go's heap where the system allows it (dumpfile_unix.go): the collector
// sets its next goal at about twice the heap it finds live, and a large
// text found live during the read would let the heap grow by its size
// twice over. The text is given back once it is parsed as a dump
// (parsedDump).
func readDumpText(name string) (dumpText, error) {
	if t, ok, err := readOffHeap(name); ok || err != nil {
		return t, err
	}
	data, err := os.ReadFile(name)
	return dumpText{data: data, free: func() {}}, err
}
