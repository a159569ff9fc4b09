package scenario

import (
	"fmt"
	"unsafe"
)

// TextRelease lets the reader of a dump give back the memory of the text
// it has read as it goes: a large dump's text is otherwise held whole
// until the last object is read, beside the objects read, and so sets the
// process's peak (docs/BENCHMARKS.md, "Fifteenth session: the peak").
type TextRelease struct {
	// Release is told that the reader no longer reads data[:n]: the
	// memory of those bytes may be given back (their contents are then
	// undefined).
	Release func(n int)
	// Reload makes data whole again, as it was read, for a reader that
	// has to read the text again from its start (a text the fast
	// readers leave to yaml.v3 only late in it); an error when it cannot
	// (the file changed meanwhile).
	Reload func() error
}

// releaseStep is how far the reading moves past the text given back
// before it gives back more: the releases are few, and each lets a
// decoder's cache of blocks (fastYAML.blocks, whose keys are the text's
// own bytes) start again.
const releaseStep = 4 << 20

// releaser gives back a dump's text behind its reading (TextRelease):
// never past the first line the reading in order still holds, nor past
// what a worker decoding ahead (dumpparallel.go) may still read.
type releaser struct {
	data []byte
	rel  *TextRelease
	// done is the length of the text given back, step how much more is
	// read before more is given back.
	done, step int
}

// ParseFileReleasing is ParseFile for a dump's text whose memory rel can
// give back while it is read (rel nil: ParseFile). data must not be used
// after it returns, but to give its memory back: the parsed scenario
// keeps nothing of it (TestParsedDumpKeepsNoText).
func ParseFileReleasing(filename string, data []byte, rel *TextRelease) (*Scenario, error) {
	if rel == nil {
		return ParseFile(filename, data)
	}
	// IsDump and plainText each read the whole text: at once.
	plain := plainTextAside(data)
	if !IsDump(data) {
		plain() // (once it returns, nothing reads data aside)
		return ParseFile(filename, data)
	}
	s, _, err := parseDumpReleasing(filename, data, true, 0, rel, releaseStep, plain)
	return s, err
}

// past is told by the reading in order that it is at a List entry of
// f's: the text before the first line f holds is read.
func (r *releaser) past(f *fastYAML, pd *predecoder) {
	if r == nil || len(f.lines) == 0 {
		return
	}
	first := f.lines[0]
	n := int(uintptr(unsafe.Pointer(unsafe.SliceData(first.s)))-uintptr(unsafe.Pointer(unsafe.SliceData(r.data)))) - first.ind
	if n < 0 || n > len(r.data) {
		return
	}
	n = min(n, pd.readFrom())
	if n-r.done < r.step {
		return
	}
	// The reading's cache of blocks has keys in the text given back.
	clear(f.blocks)
	r.rel.Release(n)
	r.done = n
}

// reload makes the text whole again before it is read from its start.
func (r *releaser) reload() error {
	if r == nil || r.done == 0 {
		return nil
	}
	if err := r.rel.Reload(); err != nil {
		return fmt.Errorf("cannot read the file again: %w", err)
	}
	r.done = 0
	return nil
}
