package scenario

import (
	"encoding/binary"
	"runtime"
	"sync"
	"unicode/utf8"
)

// plainAsideMin is the smallest text whose plainText plainTextAside
// works out on another core.
const plainAsideMin = 1 << 20

// plainTextAside is plainText(data), worked out on another core for a
// large text while the caller reads the whole text for other ends (the
// dump's test, IsDump; the cut of its items into chunks, cutPredecode):
// asked for, the answer waits for it. It reads data and nothing else.
func plainTextAside(data []byte) func() bool {
	if len(data) < plainAsideMin || runtime.GOMAXPROCS(0) < 2 {
		return sync.OnceValue(func() bool { return plainText(data) })
	}
	c := make(chan bool, 1)
	go func() { c <- plainText(data) }()
	return sync.OnceValue(func() bool { return <-c })
}

// plainText reports whether every character of data is one that fastYAML
// and fastJSON read as yaml.v3 reads it: a printable ASCII character, a
// tab, a line feed, a carriage return before a line feed, or a character
// past U+009F that yaml.v3 takes as text (U+FFFE and U+FFFF it rejects; a
// byte order mark it skips; NEL, U+2028 and U+2029 break lines for it).
// Any other text (invalid UTF-8, a control character, UTF-16) is read by
// yaml.v3 alone, which reports the fault on its line (YAMLError).
//
// Eight bytes are looked at a time: a dump is ASCII but for rare values.
func plainText(data []byte) bool {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	i := 0
	for i+8 <= len(data) {
		w := binary.LittleEndian.Uint64(data[i:])
		// No byte past 0x7e (DEL, or not ASCII), and any byte below
		// 0x20 a line feed (a tab, a carriage return: looked at alone).
		if (w|(w+ones))&high == 0 {
			low := ^((w | high) - 0x20*ones) & high
			if low == 0 {
				i += 8
				continue
			}
			if nl := w ^ 0x0a*ones; low&((nl&^high)+^uint64(high)|nl) == 0 {
				i += 8
				continue
			}
		}
		// A byte to look at: read one character.
		n, ok := plainChar(data, i)
		if !ok {
			return false
		}
		i += n
	}
	for i < len(data) {
		n, ok := plainChar(data, i)
		if !ok {
			return false
		}
		i += n
	}
	return true
}

// plainChar reads the character at data[i] and reports its length, and
// whether plainText takes it.
func plainChar(data []byte, i int) (int, bool) {
	c := data[i]
	switch {
	case c == '\t' || c == '\n' || c >= 0x20 && c < 0x7f:
		return 1, true
	case c == '\r':
		return 1, i+1 < len(data) && data[i+1] == '\n'
	case c < 0x80:
		return 1, false
	}
	r, n := utf8.DecodeRune(data[i:])
	switch {
	case r == utf8.RuneError && n <= 1, r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff:
		return n, false
	}
	return n, true
}

// readerFault returns the offset of the first character of data that
// yaml.v3's reader rejects (invalid UTF-8, a control character), or -1.
// (yaml.v3 checks every character before it reads it, and reports no line
// for these faults.) A text that starts with a UTF-16 byte order mark is
// not looked into: -1.
func readerFault(data []byte) int {
	if len(data) >= 2 && (data[0] == 0xfe && data[1] == 0xff || data[0] == 0xff && data[1] == 0xfe) {
		return -1
	}
	for i := 0; i < len(data); {
		c := data[i]
		if c < 0x80 {
			if c == '\t' || c == '\n' || c == '\r' || c >= 0x20 && c < 0x7f {
				i++
				continue
			}
			return i
		}
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 || r < 0xa0 && r != 0x85 || r == 0xfffe || r == 0xffff {
			return i
		}
		i += n
	}
	return -1
}
