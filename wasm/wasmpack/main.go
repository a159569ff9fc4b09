// Command wasmpack rewrites the data section of a WebAssembly module built
// by Go so that the module compresses better: wasmpack [-traces] IN.wasm
// [OUT.wasm] (OUT defaults to IN). It joins data segments (below) and,
// unless -traces, clears what the runtime's function table holds only for
// stack traces (TrimFuncTables).
//
// Go's linker leaves out every run of 8 or more zero bytes in the program's
// data and starts a new data segment after it, which makes the raw file
// smallest. gcplay's main.wasm got 100,000 segments that way (the linker's
// cap), mostly in the runtime's function lookup table, which is nearly all
// zeros. Each segment starts with a header holding its memory offset, and
// those offsets differ from segment to segment, so gzip cannot shrink them
// as it shrinks a run of zeros (a few bytes for 258 zeros): the headers cost
// about 170 KB of main.wasm's 2.6 MB gzipped. wasmpack joins segments that
// are less than MaxGap bytes apart, writing the zeros between them. The
// memory a module starts with is the same either way (memory starts as
// zeros, and each gap holds zeros in the linker's image): only the
// encoding changes. The raw file grows by about 1 MB of zeros; gzipped it
// is about 7% smaller.
package main

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
)

// MaxGap is the largest run of zeros between two segments that wasmpack
// writes out to join them. Past about 64 bytes the compressed size hardly
// changes; larger gaps only grow the raw file.
const MaxGap = 256

const (
	sectionData      = 11
	sectionDataCount = 12
)

func main() {
	keepTraces := flag.Bool("traces", false, "keep every function's name and its file and line tables (see TrimFuncTables): a build whose panics print full stack traces")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: wasmpack [-traces] IN.wasm [OUT.wasm]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 || flag.NArg() > 2 {
		flag.Usage()
		os.Exit(2)
	}
	in, out := flag.Arg(0), flag.Arg(flag.NArg()-1)
	b, err := os.ReadFile(in)
	if err == nil {
		var packed []byte
		var before, after int
		packed, before, after, err = Pack(b, MaxGap)
		if err == nil {
			fmt.Printf("wasmpack: %d data segments joined into %d\n", before, after)
		}
		if err == nil && !*keepTraces {
			var st TrimStats
			packed, st, err = trimModule(packed, keepName)
			if err == nil {
				fmt.Printf("wasmpack: %d functions: %d names (%d bytes) and %d bytes of file, line and unsafe-point tables cleared\n",
					st.Funcs, st.Names, st.NameBytes, st.TableBytes)
			}
		}
		if err == nil {
			err = os.WriteFile(out, packed, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmpack:", err)
		os.Exit(1)
	}
}

// segment is an active data segment of memory 0: data placed at offset.
type segment struct {
	offset int64
	data   []byte
}

// Pack returns module with its data segments joined where less than maxGap
// bytes apart, and the number of segments before and after. A module whose
// data section it does not understand (passive segments, another memory,
// an offset that is not an i32.const) is an error, not a guess.
func Pack(module []byte, maxGap int64) (packed []byte, before, after int, err error) {
	if len(module) < 8 || !bytes.Equal(module[:4], []byte("\x00asm")) {
		return nil, 0, 0, errors.New("not a WebAssembly module")
	}
	out := bytes.NewBuffer(make([]byte, 0, len(module)+len(module)/8))
	out.Write(module[:8])
	r := reader{b: module, pos: 8}
	dataCountAt := -1 // where the data count section's body starts in out
	for !r.done() {
		start := r.pos
		id := r.byte()
		size := r.uleb()
		body := r.bytes(int(size))
		if r.err != nil {
			return nil, 0, 0, fmt.Errorf("section at byte %d: %w", start, r.err)
		}
		switch id {
		case sectionDataCount:
			// Kept as is, then rewritten with the new count below (one
			// LEB128 of fixed width, so the section keeps its size).
			out.WriteByte(id)
			writeULEB(out, uint64(len(body)))
			dataCountAt = out.Len()
			out.Write(body)
		case sectionData:
			segs, err := readSegments(body)
			if err != nil {
				return nil, 0, 0, err
			}
			joined, err := join(segs, maxGap)
			if err != nil {
				return nil, 0, 0, err
			}
			before, after = len(segs), len(joined)
			var sec bytes.Buffer
			writeULEB(&sec, uint64(len(joined)))
			for _, s := range joined {
				sec.WriteByte(0)    // active, memory 0
				sec.WriteByte(0x41) // i32.const
				writeSLEB(&sec, s.offset)
				sec.WriteByte(0x0b) // end
				writeULEB(&sec, uint64(len(s.data)))
				sec.Write(s.data)
			}
			out.WriteByte(id)
			writeULEB(out, uint64(sec.Len()))
			out.Write(sec.Bytes())
		default:
			out.Write(module[start:r.pos])
		}
	}
	packed = out.Bytes()
	if dataCountAt >= 0 {
		cr := reader{b: packed, pos: dataCountAt}
		cr.uleb()
		width := cr.pos - dataCountAt
		if cr.err != nil || !fitsULEB(uint64(after), width) {
			return nil, 0, 0, errors.New("cannot rewrite the data count section")
		}
		putULEBWidth(packed[dataCountAt:], uint64(after), width)
	}
	return packed, before, after, nil
}

func readSegments(body []byte) ([]segment, error) {
	r := reader{b: body}
	n := r.uleb()
	segs := make([]segment, 0, n)
	for i := uint64(0); i < n && r.err == nil; i++ {
		if flags := r.uleb(); flags != 0 {
			return nil, fmt.Errorf("data segment %d: kind %d is not an active segment of memory 0", i, flags)
		}
		if op := r.byte(); op != 0x41 {
			return nil, fmt.Errorf("data segment %d: offset is not an i32.const", i)
		}
		off := r.sleb()
		if end := r.byte(); end != 0x0b {
			return nil, fmt.Errorf("data segment %d: offset expression is not a single constant", i)
		}
		size := r.uleb()
		data := r.bytes(int(size))
		if off < 0 || off > 1<<32 {
			return nil, fmt.Errorf("data segment %d: offset %d out of range", i, off)
		}
		segs = append(segs, segment{offset: off, data: data})
	}
	if r.err != nil {
		return nil, fmt.Errorf("data section: %w", r.err)
	}
	if !r.done() {
		return nil, errors.New("data section: bytes after the last segment")
	}
	return segs, nil
}

// join sorts the segments by offset and joins those less than maxGap
// apart. Overlapping segments are an error: their order would matter.
func join(segs []segment, maxGap int64) ([]segment, error) {
	sorted := slices.Clone(segs)
	slices.SortStableFunc(sorted, func(a, b segment) int { return cmp.Compare(a.offset, b.offset) })
	var out []segment
	for _, s := range sorted {
		if len(out) > 0 {
			last := &out[len(out)-1]
			end := last.offset + int64(len(last.data))
			if s.offset < end {
				return nil, fmt.Errorf("data segments overlap at offset %d", s.offset)
			}
			if gap := s.offset - end; gap < maxGap {
				last.data = append(last.data, make([]byte, gap)...)
				last.data = append(last.data, s.data...)
				continue
			}
		}
		out = append(out, segment{offset: s.offset, data: slices.Clone(s.data)})
	}
	return out, nil
}

type reader struct {
	b   []byte
	pos int
	err error
}

var errShort = errors.New("unexpected end of module")

func (r *reader) done() bool { return r.err != nil || r.pos >= len(r.b) }

func (r *reader) byte() byte {
	if r.err != nil || r.pos >= len(r.b) {
		r.err = errShort
		return 0
	}
	c := r.b[r.pos]
	r.pos++
	return c
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.pos {
		r.err = errShort
		return nil
	}
	s := r.b[r.pos : r.pos+n]
	r.pos += n
	return s
}

func (r *reader) uleb() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.pos:])
	if n <= 0 {
		r.err = errShort
		return 0
	}
	r.pos += n
	return v
}

func (r *reader) sleb() int64 {
	var v int64
	var shift uint
	for {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
		if shift >= 64 {
			r.err = errors.New("LEB128 number too long")
			return 0
		}
	}
}

func writeULEB(w *bytes.Buffer, v uint64) { w.Write(binary.AppendUvarint(nil, v)) }

func writeSLEB(w *bytes.Buffer, v int64) {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			w.WriteByte(c)
			return
		}
		w.WriteByte(c | 0x80)
	}
}

func fitsULEB(v uint64, width int) bool {
	return width >= 1 && width <= 10 && (width*7 >= 64 || v < 1<<(7*width))
}

// putULEBWidth writes v as a LEB128 of exactly width bytes (padded with
// continuation bits, which decoders accept).
func putULEBWidth(b []byte, v uint64, width int) {
	for i := 0; i < width; i++ {
		c := byte(v & 0x7f)
		v >>= 7
		if i < width-1 {
			c |= 0x80
		}
		b[i] = c
	}
}
