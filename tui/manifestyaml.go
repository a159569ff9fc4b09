package tui

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

// directYAML writes a JSON document as jsonToYAML does, without the YAML
// library, for the documents whose every scalar it can place with
// certainty: a mapping at the top, keys and strings of printable ASCII
// whose presentation (plain, single- or double-quoted) follows from the
// rules below. ok is false for anything else (a string that might read as
// a number or a date, non-ASCII text, a line break, a list directly in a
// list), and the caller then asks jsonToYAML.
//
// It exists for the page's start: the inspector shows the selected
// object's manifest in the first frame, and yaml.v3's encoder (and its
// parser reading JSON into nodes) was code the browser compiled before it
// could draw anything. TestDirectYAMLIsJSONToYAML holds the two to the
// same output.
func directYAML(j []byte) (string, bool) {
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return "", false
	}
	if d.More() {
		return "", false
	}
	m, isMap := v.(map[string]any)
	if !isMap || len(m) == 0 {
		return "", false
	}
	var b strings.Builder
	if !writeYAMLMap(&b, m, 0, false) {
		return "", false
	}
	return b.String(), true
}

// writeYAMLMap writes a non-empty mapping in block style at indent; with
// inItem, its first key follows a sequence item's "- " already written.
func writeYAMLMap(b *strings.Builder, m map[string]any, indent int, inItem bool) bool {
	keys := make([]string, 0, len(m))
	for k := range m {
		if len(k) > 128 { // the emitter writes a longer key as a complex key ("? ")
			return false
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i > 0 || !inItem {
			b.WriteString(strings.Repeat(" ", indent))
		}
		if !writeYAMLString(b, k) {
			return false
		}
		b.WriteByte(':')
		switch v := m[k].(type) {
		case map[string]any:
			if len(v) == 0 {
				b.WriteString(" {}\n")
				continue
			}
			b.WriteByte('\n')
			if !writeYAMLMap(b, v, indent+2, false) {
				return false
			}
		case []any:
			if len(v) == 0 {
				b.WriteString(" []\n")
				continue
			}
			b.WriteByte('\n')
			// Items level with their key (the encoder's CompactSeqIndent).
			if !writeYAMLSeq(b, v, indent) {
				return false
			}
		default:
			b.WriteByte(' ')
			if !writeYAMLScalar(b, v) {
				return false
			}
			b.WriteByte('\n')
		}
	}
	return true
}

// writeYAMLSeq writes a non-empty sequence in block style, its items' "- "
// at indent.
func writeYAMLSeq(b *strings.Builder, s []any, indent int) bool {
	for _, it := range s {
		b.WriteString(strings.Repeat(" ", indent))
		b.WriteString("- ")
		switch v := it.(type) {
		case map[string]any:
			if len(v) == 0 {
				b.WriteString("{}\n")
				continue
			}
			if !writeYAMLMap(b, v, indent+2, true) {
				return false
			}
		case []any:
			if len(v) == 0 {
				b.WriteString("[]\n")
				continue
			}
			return false
		default:
			if !writeYAMLScalar(b, v) {
				return false
			}
			b.WriteByte('\n')
		}
	}
	return true
}

// writeYAMLScalar writes a JSON scalar: numbers, true, false and null as
// JSON spells them (YAML reads each back as the same type), strings by
// writeYAMLString.
func writeYAMLScalar(b *strings.Builder, v any) bool {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case json.Number:
		b.WriteString(string(v))
	case string:
		return writeYAMLString(b, v)
	default:
		return false
	}
	return true
}

// writeYAMLString writes a string (a key or a value) as yaml.v3 presents a
// string node of no style in block context: double-quoted where read plain
// it would be another type (null, a bool, a number, a date), plain where
// YAML's block rules allow it, else single-quoted. It declines (false)
// where it cannot be sure: any byte outside printable ASCII, and strings
// starting with a digit, a sign or a dot other than a run of digits or a
// UTC date and time as Kubernetes writes them.
func writeYAMLString(b *strings.Builder, s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	switch s {
	case "", "~", "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE", "<<":
		b.WriteString(`"` + s + `"`)
		return true
	}
	switch c := s[0]; {
	case c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.':
		switch {
		case allDigits(s) || isUTCTime(s):
			b.WriteString(`"` + s + `"`)
			return true
		case c >= '0' && c <= '9' && !maybeNumber(s):
			// A hash such as a pod-template-hash: a string.
		case c == '-' && len(s) > 1 && s[1] == ' ':
		default:
			// "-1x", ".5", "0x1F", "1e3", "1:30": YAML's spellings of
			// numbers and dates are not worth copying here.
			return false
		}
	}
	if plainInBlock(s) {
		b.WriteString(s)
	} else {
		b.WriteString("'" + strings.ReplaceAll(s, "'", "''") + "'")
	}
	return true
}

// plainInBlock reports whether YAML's emitter may write s (printable
// ASCII) as a plain scalar in block context.
func plainInBlock(s string) bool {
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		return false
	}
	spaceAfter := func(i int) bool { return i+1 >= len(s) || s[i+1] == ' ' }
	switch s[0] {
	case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '?', ':', '-':
		if spaceAfter(0) {
			return false
		}
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case ':':
			if spaceAfter(i) {
				return false
			}
		case '#':
			if s[i-1] == ' ' {
				return false
			}
		}
	}
	return true
}

// maybeNumber reports whether s (starting with a digit) might read as an
// integer, a float or a date: false only when a byte of it can be part of
// none of them, or when it starts with 0 and a letter of no prefix (0x,
// 0b, 0o).
func maybeNumber(s string) bool {
	if s[0] == '0' && len(s) > 1 && strings.IndexByte("xXbBoO", s[1]) >= 0 {
		return true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || strings.IndexByte("_.eE+-:TtZz ", c) >= 0) {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// isUTCTime reports whether s is a time spelled 2006-01-02T15:04:05Z
// (metav1.Time as JSON), which YAML reads as a timestamp: whether
// time.Parse("2006-1-2T15:4:5.999999999Z07:00", s) succeeds, which for
// this form is whether the date is in the calendar and the time of day
// on the clock. It checks the fields itself: every object's
// creationTimestamp passes here, the inspector shows one in the page's
// first frame, and time's parser was code the browser compiled for it
// before it could draw anything. TestIsUTCTimeIsTimeParse holds it to
// time.Parse.
func isUTCTime(s string) bool {
	const form = "dddd-dd-ddTdd:dd:ddZ"
	if len(s) != len(form) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if form[i] == 'd' {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		} else if s[i] != form[i] {
			return false
		}
	}
	year, month, day := decimal(s[:4]), decimal(s[5:7]), decimal(s[8:10])
	if month < 1 || month > 12 || day < 1 || day > daysIn(month, year) {
		return false
	}
	return decimal(s[11:13]) < 24 && decimal(s[14:16]) < 60 && decimal(s[17:19]) < 60
}

// decimal is the value of s, all digits.
func decimal(s string) int {
	v := 0
	for i := 0; i < len(s); i++ {
		v = v*10 + int(s[i]-'0')
	}
	return v
}

// daysIn is the number of days of month (1-12) in year, as time's.
func daysIn(month, year int) int {
	if month == 2 {
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 30 + (month+month/8)%2
}
