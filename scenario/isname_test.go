package scenario

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// TestIsNameIsTheRegexp holds isName and isKindName to the regexps they
// write out: every string of up to five characters of an alphabet with
// each class's edges and the characters just outside them, and 20,000
// random longer ones.
func TestIsNameIsTheRegexp(t *testing.T) {
	for _, c := range []struct {
		name string
		is   func(string) bool
		re   *regexp.Regexp
	}{
		{"isName", isName, regexp.MustCompile(`^[a-z0-9-]+$`)},
		{"isKindName", isKindName, regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*$`)},
	} {
		n, yes := 0, 0
		check := func(s string) {
			t.Helper()
			n++
			got, want := c.is(s), c.re.MatchString(s)
			if got != want {
				t.Fatalf("%s(%q) = %v, the regexp says %v", c.name, s, got, want)
			}
			if got {
				yes++
			}
		}
		alphabet := []string{"a", "z", "A", "Z", "0", "9", "-", "`", "{", "@", "[", "/", ":", "_", "\n", "\xff", "é"}
		var all func(prefix string, left int)
		all = func(prefix string, left int) {
			check(prefix)
			if left == 0 {
				return
			}
			for _, a := range alphabet {
				all(prefix+a, left-1)
			}
		}
		all("", 5)
		r := rand.New(rand.NewSource(1))
		for i := 0; i < 20000; i++ {
			var b strings.Builder
			for k := 1 + r.Intn(30); k > 0; k-- {
				if r.Intn(20) == 0 {
					b.WriteString(alphabet[r.Intn(len(alphabet))])
				} else {
					b.WriteString(alphabet[r.Intn(6)]) // mostly letters and digits, to reach long matches
				}
			}
			check(b.String())
		}
		if yes < 5000 || n-yes < 5000 {
			t.Fatalf("%s: %d strings checked, %d matched: too few of one kind", c.name, n, yes)
		}
	}
}
