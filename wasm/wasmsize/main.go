// Command wasmsize says what a WebAssembly module built by Go is made of:
// each section's size raw and compressed, and the code of each Go package
// (the function bodies the module's name section attributes to it), so a
// change to what the browser build links can be weighed before the slow
// brotli of the whole file.
//
//	wasmsize [-n 40] MODULE.wasm
//
// The module must keep its name section: build it without -ldflags=-s
// (build/wasm-shim/build.sh strips it; docs/BENCHMARKS.md gives the
// command). Compressed sizes are DEFLATE at level 9 of each part on its
// own: what a part costs within the whole file is less, but they rank.
package main

import (
	"bytes"
	"cmp"
	"compress/flate"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

func main() {
	n := flag.Int("n", 40, "list the `N` largest packages")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-n N] MODULE.wasm")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err == nil {
		err = report(os.Stdout, b, *n)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
}

// module is what wasmsize reads of a module.
type module struct {
	sections []section
	// imports is the number of imported functions: the name section
	// numbers functions imports first.
	imports int
	bodies  [][]byte
	names   map[int]string
}

type section struct {
	id   byte
	name string // a custom section's name
	body []byte
}

var sectionNames = map[byte]string{1: "type", 2: "import", 3: "function", 4: "table", 5: "memory", 6: "global",
	7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "data count"}

func report(w io.Writer, b []byte, top int) error {
	m, err := parse(b)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%-20s %12s %12s\n", "section", "bytes", "deflate -9")
	for _, s := range m.sections {
		name := sectionNames[s.id]
		if s.id == 0 {
			name = "custom " + s.name
		}
		fmt.Fprintf(w, "%-20s %12d %12d\n", name, len(s.body), deflated(s.body))
	}
	if len(m.names) == 0 {
		return errors.New("the module has no function names (built with -ldflags=-s?): no packages to list")
	}
	code := map[string]*bytes.Buffer{}
	for i, body := range m.bodies {
		p := pkgOf(m.names[m.imports+i])
		if code[p] == nil {
			code[p] = &bytes.Buffer{}
		}
		code[p].Write(body)
	}
	type row struct {
		pkg        string
		raw, deflz int
	}
	var rows []row
	for p, buf := range code {
		rows = append(rows, row{p, buf.Len(), deflated(buf.Bytes())})
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Or(cmp.Compare(b.raw, a.raw), strings.Compare(a.pkg, b.pkg)) })
	fmt.Fprintf(w, "\n%d functions; code by package (the largest %d):\n%12s %12s  %s\n", len(m.bodies), min(top, len(rows)), "bytes", "deflate -9", "package")
	for i, r := range rows {
		if i == top {
			break
		}
		fmt.Fprintf(w, "%12d %12d  %s\n", r.raw, r.deflz, r.pkg)
	}
	return nil
}

func deflated(b []byte) int {
	var out bytes.Buffer
	z, _ := flate.NewWriter(&out, flate.BestCompression)
	z.Write(b)
	z.Close()
	return out.Len()
}

// pkgOf returns the package of a function name as Go's wasm linker writes
// it: the import path with "/" (and other characters that are not part of
// an identifier) as "_", then ".", then the function
// ("github.com_gcplay_gcplay_engine.__gc_.step"). The path's first element
// is a domain when it ends in a top-level domain ("github.com",
// "go.yaml.in"); a package then ends at the first dot after it.
func pkgOf(name string) string {
	if first, rest, ok := strings.Cut(name, "_"); ok {
		if i := strings.LastIndex(first, "."); i >= 0 && domains[first[i+1:]] {
			if j := strings.Index(rest, "."); j >= 0 {
				return strings.ReplaceAll(first+"/"+rest[:j], "_", "/")
			}
			return name
		}
	}
	if i := strings.Index(name, "."); i >= 0 {
		return strings.ReplaceAll(name[:i], "_", "/")
	}
	return name
}

// domains are the top-level domains of the module paths gcplay links.
var domains = map[string]bool{"com": true, "org": true, "net": true, "io": true, "in": true, "land": true, "dev": true, "co": true}

func parse(b []byte) (*module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module")
	}
	m := &module{names: map[int]string{}}
	r := &reader{b: b, pos: 8}
	for !r.done() {
		id := r.byte()
		body := r.bytes(int(r.uleb()))
		if r.err != nil {
			return nil, r.err
		}
		s := section{id: id, body: body}
		sr := &reader{b: body}
		switch id {
		case 0:
			s.name = string(sr.bytes(int(sr.uleb())))
			if s.name == "name" {
				readNames(sr, m.names)
			}
		case 2:
			m.imports = countFuncImports(sr)
		case 10:
			for n := sr.uleb(); n > 0 && sr.err == nil; n-- {
				m.bodies = append(m.bodies, sr.bytes(int(sr.uleb())))
			}
		}
		if sr.err != nil {
			return nil, fmt.Errorf("section %d: %w", id, sr.err)
		}
		m.sections = append(m.sections, s)
	}
	return m, nil
}

// readNames reads the function names subsection of a name section.
func readNames(r *reader, names map[int]string) {
	for !r.done() {
		sub := r.byte()
		body := r.bytes(int(r.uleb()))
		if sub != 1 {
			continue
		}
		sr := &reader{b: body}
		for n := sr.uleb(); n > 0 && sr.err == nil; n-- {
			idx := int(sr.uleb())
			names[idx] = string(sr.bytes(int(sr.uleb())))
		}
		if sr.err != nil {
			r.err = sr.err
		}
	}
}

// countFuncImports counts the imported functions of an import section.
func countFuncImports(r *reader) int {
	funcs := 0
	for n := r.uleb(); n > 0 && r.err == nil; n-- {
		r.bytes(int(r.uleb())) // module
		r.bytes(int(r.uleb())) // name
		switch kind := r.byte(); kind {
		case 0: // function: type index
			r.uleb()
			funcs++
		case 1: // table: element type, limits
			r.byte()
			limits(r)
		case 2: // memory: limits
			limits(r)
		case 3: // global: value type, mutability
			r.bytes(2)
		default:
			r.err = fmt.Errorf("import of unknown kind %d", kind)
		}
	}
	return funcs
}

func limits(r *reader) {
	if r.byte()&1 != 0 {
		r.uleb()
	}
	r.uleb()
}

type reader struct {
	b   []byte
	pos int
	err error
}

func (r *reader) done() bool { return r.err != nil || r.pos >= len(r.b) }

func (r *reader) byte() byte {
	if r.err == nil && r.pos >= len(r.b) {
		r.err = io.ErrUnexpectedEOF
	}
	if r.err != nil {
		return 0
	}
	r.pos++
	return r.b[r.pos-1]
}

func (r *reader) bytes(n int) []byte {
	if r.err == nil && (n < 0 || r.pos+n > len(r.b)) {
		r.err = io.ErrUnexpectedEOF
	}
	if r.err != nil {
		return nil
	}
	r.pos += n
	return r.b[r.pos-n : r.pos]
}

func (r *reader) uleb() uint64 {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	if r.err == nil {
		r.err = errors.New("malformed LEB128")
	}
	return v
}
