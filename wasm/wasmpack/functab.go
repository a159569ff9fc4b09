package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// The Go runtime's function table (runtime.pclntab, in the module's data)
// holds, besides what the runtime needs to run (each function's entry,
// frame size, stack maps and unwinding tables), what it needs only to
// print a stack trace: the file and line of every instruction and every
// function's name: a large part of main.wasm's brotli copy
// (docs/BENCHMARKS.md), for traces a user of the page never sees.
//
// TrimFuncTables drops them: every function's file and line tables (its
// pcfile, pcln, cuOffset and startLine become 0, which the runtime reads
// as "unknown": a trace prints ?:0); the names of functions that are
// neither the runtime's (it compares some of them: reflect.makeFuncStub
// while scanning a stack, the "runtime." prefix of a system goroutine) nor
// gcplay's own (kept, so an internal error on the page can still say in
// which function it happened); and the unsafe-point tables
// (pcdataUnsafePoint). The bytes no longer referenced are set to zero, so
// the layout, every offset and the memory size stay as they were.
//
// Traces also lose their arguments' values: no function points to its
// argument layout (funcdataArgInfo, funcdataArgLiveInfo) any more; the
// layouts themselves stay, small and shared.
//
// The format is Go 1.20's and later (abi.Go120PCLnTabMagic), as the Go
// release in go.mod writes it for GOARCH=wasm (8-byte pointers); anything
// else is an error, not a guess.

const pclnMagic = 0xfffffff1

// _func field offsets (runtime/runtime2.go, type _func).
const (
	funcNameOff   = 4
	funcPCSP      = 16
	funcPCFile    = 20
	funcPCLn      = 24
	funcNPCData   = 28
	funcCUOffset  = 32
	funcStartLine = 36
	funcNFuncData = 43
	funcSize      = 44

	// The unsafe-point table (abi.PCDATA_UnsafePoint) is read only to
	// preempt a goroutine with a signal or to let a debugger call a
	// function, neither of which exists on wasm.
	pcdataUnsafePoint = 0

	funcdataArgInfo     = 5
	funcdataArgLiveInfo = 6
)

// keepName reports whether a function keeps its name.
func keepName(name string) bool {
	for _, p := range []string{"runtime.", "reflect.", "internal/", "main.", "github.com/gcplay/gcplay/"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// TrimStats says what TrimFuncTables cleared.
type TrimStats struct {
	Funcs      int // functions in the table
	Names      int // names dropped
	NameBytes  int
	TableBytes int // bytes of file, line and unsafe-point tables cleared

}

// TrimFuncTables clears the file and line tables and the names described
// above in mem, the memory image the module's data segments make.
func TrimFuncTables(mem []byte, keep func(string) bool) (TrimStats, error) {
	var st TrimStats
	le := binary.LittleEndian
	hdr := -1
	for off := 0; off+72 <= len(mem); off += 8 {
		// magic, two zero pads, the instruction size (1 on wasm), 8-byte pointers
		if le.Uint32(mem[off:]) == pclnMagic && mem[off+4] == 0 && mem[off+5] == 0 && mem[off+6] == 1 && mem[off+7] == 8 {
			if hdr >= 0 {
				return st, errors.New("two function table headers in the data")
			}
			hdr = off
		}
	}
	if hdr < 0 {
		return st, errors.New("no Go function table (pcHeader) in the data")
	}
	h := mem[hdr:]
	word := func(i int) int { return int(le.Uint64(h[8+8*i:])) }
	nfunc, nameTab, pcTab, funcTab := word(0), word(3), word(6), word(7)
	if nfunc <= 0 || nameTab <= 0 || pcTab <= nameTab || funcTab <= pcTab || funcTab+8*(nfunc+1) > len(h) {
		return st, fmt.Errorf("function table header out of range (nfunc %d)", nfunc)
	}
	st.Funcs = nfunc
	funcs := make([][]byte, nfunc)
	needed := map[uint32]bool{} // pctab offsets the runtime reads to run
	for i := range funcs {
		off := funcTab + int(le.Uint32(h[funcTab+8*i+4:]))
		if off+funcSize > len(h) {
			return st, fmt.Errorf("function %d out of range", i)
		}
		f := h[off:]
		npcdata := int(le.Uint32(f[funcNPCData:]))
		if off+funcSize+4*npcdata+4*int(f[funcNFuncData]) > len(h) {
			return st, fmt.Errorf("function %d out of range", i)
		}
		funcs[i] = f
		needed[le.Uint32(f[funcPCSP:])] = true
		for j := 1; j < npcdata; j++ {
			needed[le.Uint32(f[funcSize+4*j:])] = true
		}
	}
	name := func(f []byte) (start, end int, err error) {
		start = nameTab + int(le.Uint32(f[funcNameOff:]))
		if start < nameTab || start >= pcTab {
			return 0, 0, errors.New("function name out of range")
		}
		n := bytes.IndexByte(h[start:pcTab], 0)
		if n < 0 {
			return 0, 0, errors.New("function name not terminated")
		}
		return start, start + n, nil
	}
	// A kept name's terminating zero is the empty name the others point to.
	empty := -1
	var drop [][2]int
	cleared := map[uint32]bool{} // pctab offsets of tables no longer read
	for _, f := range funcs {
		a, b, err := name(f)
		if err != nil {
			return st, err
		}
		if keep(string(h[a:b])) {
			if empty < 0 {
				empty = b - nameTab
			}
		} else {
			drop = append(drop, [2]int{a, b})
		}
		tabs := []uint32{le.Uint32(f[funcPCFile:]), le.Uint32(f[funcPCLn:])}
		if le.Uint32(f[funcNPCData:]) > pcdataUnsafePoint {
			tabs = append(tabs, le.Uint32(f[funcSize+4*pcdataUnsafePoint:]))
		}
		for _, o := range tabs {
			if o != 0 && !needed[o] {
				cleared[o] = true
			}
		}
	}
	if empty < 0 {
		return st, errors.New("no function keeps its name")
	}
	for _, f := range funcs {
		if a, b, _ := name(f); !keep(string(h[a:b])) {
			le.PutUint32(f[funcNameOff:], uint32(empty))
		}
		for _, field := range []int{funcPCFile, funcPCLn, funcCUOffset, funcStartLine} {
			le.PutUint32(f[field:], 0)
		}
		if le.Uint32(f[funcNPCData:]) > pcdataUnsafePoint {
			le.PutUint32(f[funcSize+4*pcdataUnsafePoint:], 0)
		}
		npcdata := int(le.Uint32(f[funcNPCData:]))
		for _, k := range []int{funcdataArgInfo, funcdataArgLiveInfo} {
			if k < int(f[funcNFuncData]) {
				le.PutUint32(f[funcSize+4*npcdata+4*k:], ^uint32(0)) // none
			}
		}
	}
	for _, d := range drop {
		clear(h[d[0]:d[1]])
		st.Names++
		st.NameBytes += d[1] - d[0]
	}
	for o := range cleared {
		n, err := pcTableLen(h[pcTab:funcTab], int(o))
		if err != nil {
			return st, err
		}
		clear(h[pcTab+int(o) : pcTab+int(o)+n])
		st.TableBytes += n
	}
	return st, nil
}

// pcTableLen is the length of the pc-value table at off in tab: pairs of
// varints (value delta, pc delta), ended by a zero value delta after the
// first pair.
func pcTableLen(tab []byte, off int) (int, error) {
	p := off
	for first := true; ; first = false {
		v, n := binary.Uvarint(tab[min(p, len(tab)):])
		if n <= 0 {
			return 0, fmt.Errorf("pc table at %d runs past the table", off)
		}
		p += n
		if v == 0 && !first {
			return p - off, nil
		}
		_, n = binary.Uvarint(tab[min(p, len(tab)):])
		if n <= 0 {
			return 0, fmt.Errorf("pc table at %d runs past the table", off)
		}
		p += n
	}
}

// trimModule applies TrimFuncTables to a module's data segments, which
// keep their places and sizes.
func trimModule(module []byte, keep func(string) bool) ([]byte, TrimStats, error) {
	out := bytes.Clone(module)
	r := reader{b: out, pos: 8}
	for !r.done() {
		id := r.byte()
		body := r.bytes(int(r.uleb()))
		if r.err != nil || id != sectionData {
			continue
		}
		segs, err := readSegments(body)
		if err != nil {
			return nil, TrimStats{}, err
		}
		var end int64
		for _, s := range segs {
			end = max(end, s.offset+int64(len(s.data)))
		}
		mem := make([]byte, end)
		for _, s := range segs {
			copy(mem[s.offset:], s.data)
		}
		before := bytes.Clone(mem)
		st, err := TrimFuncTables(mem, keep)
		if err != nil {
			return nil, st, err
		}
		covered := make([]bool, end) // what the segments hold; the rest is zero
		for _, s := range segs {
			copy(s.data, mem[s.offset:]) // s.data is a slice of out
			for i := range s.data {
				covered[s.offset+int64(i)] = true
			}
		}
		for i := range mem {
			if mem[i] != before[i] && !covered[i] {
				return nil, st, fmt.Errorf("function table: byte %d is in no data segment", i)
			}
		}
		return out, st, nil
	}
	if r.err != nil {
		return nil, TrimStats{}, r.err
	}
	return nil, TrimStats{}, errors.New("no data section")
}
