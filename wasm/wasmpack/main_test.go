package main

import (
	"bytes"
	"strings"
	"testing"
)

// module returns a module with a custom section, a data count section when
// withCount, and a data section holding segs in that order.
func module(segs []segment, withCount bool) []byte {
	var m bytes.Buffer
	m.WriteString("\x00asm\x01\x00\x00\x00")
	section := func(id byte, body []byte) {
		m.WriteByte(id)
		writeULEB(&m, uint64(len(body)))
		m.Write(body)
	}
	section(0, []byte("\x04nameXYZ"))
	if withCount {
		section(sectionDataCount, []byte{0x80 | byte(len(segs)&0x7f), byte(len(segs) >> 7)}) // two bytes wide, as linkers pad it
	}
	var d bytes.Buffer
	writeULEB(&d, uint64(len(segs)))
	for _, s := range segs {
		d.Write([]byte{0, 0x41})
		writeSLEB(&d, s.offset)
		d.WriteByte(0x0b)
		writeULEB(&d, uint64(len(s.data)))
		d.Write(s.data)
	}
	section(sectionData, d.Bytes())
	section(0, []byte("\x09producersABC"))
	return m.Bytes()
}

// memory returns the memory image a module's data segments make.
func memory(t *testing.T, mod []byte) []byte {
	t.Helper()
	r := reader{b: mod, pos: 8}
	var mem []byte
	for !r.done() {
		id := r.byte()
		body := r.bytes(int(r.uleb()))
		if id != sectionData {
			continue
		}
		segs, err := readSegments(body)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range segs {
			if end := int(s.offset) + len(s.data); end > len(mem) {
				mem = append(mem, make([]byte, end-len(mem))...)
			}
			copy(mem[s.offset:], s.data)
		}
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	return bytes.TrimRight(mem, "\x00")
}

func TestPackKeepsMemory(t *testing.T) {
	segs := []segment{
		{offset: 70000, data: []byte("far away")},
		{offset: 1024, data: []byte("first")},
		{offset: 1029 + 10, data: []byte("ten zeros after first")},
		{offset: 4096, data: []byte("a 2 KB gap before me")},
		{offset: 4096 + 20 + MaxGap - 1, data: []byte("just under MaxGap")},
		{offset: 1 << 20, data: bytes.Repeat([]byte{7}, 300)},
	}
	for _, withCount := range []bool{false, true} {
		mod := module(segs, withCount)
		packed, before, after, err := Pack(mod, MaxGap)
		if err != nil {
			t.Fatal(err)
		}
		if before != 6 || after != 4 {
			t.Errorf("segments %d -> %d, want 6 -> 4", before, after)
		}
		if !bytes.Equal(memory(t, mod), memory(t, packed)) {
			t.Fatal("the packed module starts with another memory")
		}
		// The other sections are unchanged, in the same order.
		if !bytes.HasPrefix(packed, mod[:8+10]) || !bytes.HasSuffix(packed, mod[len(mod)-14:]) {
			t.Errorf("the sections around the data section changed")
		}
		if withCount {
			r := reader{b: packed, pos: 8}
			r.byte() // the custom section
			r.bytes(int(r.uleb()))
			if id := r.byte(); id != sectionDataCount {
				t.Fatalf("section %d where the data count should be", id)
			}
			r.uleb()
			if n := r.uleb(); n != 4 {
				t.Errorf("data count %d, want 4", n)
			}
		}
		again, _, after2, err := Pack(packed, MaxGap)
		if err != nil || after2 != after || !bytes.Equal(again, packed) {
			t.Errorf("packing twice changed the module (err %v)", err)
		}
	}
}

func TestPackRefuses(t *testing.T) {
	overlap := module([]segment{{offset: 10, data: []byte("abcdef")}, {offset: 12, data: []byte("x")}}, false)
	passive := []byte("\x00asm\x01\x00\x00\x00\x0b\x05\x01\x01\x02hi")
	for name, tc := range map[string]struct {
		mod  []byte
		want string
	}{
		"overlap":   {overlap, "overlap"},
		"passive":   {passive, "not an active segment"},
		"truncated": {overlap[:len(overlap)-20], "unexpected end"},
		"not wasm":  {[]byte("hello world"), "not a WebAssembly module"},
	} {
		if _, _, _, err := Pack(tc.mod, MaxGap); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one about %q", name, err, tc.want)
		}
	}
}
