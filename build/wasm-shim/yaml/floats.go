// Package yaml is gcplay's own code, not yaml's: build.sh copies this
// file into private copies of the pinned go.yaml.in/yaml/v2 and v3
// modules for the browser build, where their two package-level regexps
// become these matchers and the packages no longer import regexp:
//
//	var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`) // resolve.go
//	var base60float = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)       // encode.go
//
// The page then links no regexp at all (regexp and regexp/syntax, with
// the Unicode tables they pull in; docs/BENCHMARKS.md has the size).
// Both libraries call only their MatchString; floats_test.go holds each
// matcher to its regexp. The native binary links yaml as it is.
package yaml

// gcplayYAMLStyleFloat matches what yamlStyleFloat matches.
type gcplayYAMLStyleFloat struct{}

// gcplayBase60Float matches what base60float matches.
type gcplayBase60Float struct{}

func gcplayDigit(c byte) bool { return '0' <= c && c <= '9' }

// gcplaySkip returns the index of the first byte of s at or after i
// that is not a digit (nor, with underscore, a _).
func gcplaySkip(s string, i int, underscore bool) int {
	for i < len(s) && (gcplayDigit(s[i]) || underscore && s[i] == '_') {
		i++
	}
	return i
}

// MatchString reports whether all of s is
// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?. Each part is
// told by its first byte, and a run of digits ends where the next part
// may begin, so one pass decides.
func (gcplayYAMLStyleFloat) MatchString(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		j := gcplaySkip(s, i+1, false)
		if j == i+1 {
			return false
		}
		i = j
	} else {
		j := gcplaySkip(s, i, false)
		if j == i {
			return false
		}
		i = j
		if i < len(s) && s[i] == '.' {
			i = gcplaySkip(s, i+1, false)
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		j := gcplaySkip(s, i, false)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(s)
}

// MatchString reports whether all of s is
// [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?. A part after a
// colon is one digit, or two of which the first is 0-5: what may follow
// a part (a colon, a dot, the end) is no digit.
func (gcplayBase60Float) MatchString(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i >= len(s) || !gcplayDigit(s[i]) {
		return false
	}
	i = gcplaySkip(s, i+1, true)
	parts := 0
	for i < len(s) && s[i] == ':' {
		j := gcplaySkip(s, i+1, false)
		switch n := j - (i + 1); {
		case n == 1:
		case n == 2 && s[i+1] <= '5':
		default:
			return false
		}
		i = j
		parts++
	}
	if parts == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i = gcplaySkip(s, i+1, true)
	}
	return i == len(s)
}
