package engine

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestSplitOrdinalNameIsTheRegexp holds splitOrdinalName to the regexp it
// writes out: every string of up to seven pieces of an alphabet of the
// characters that matter (a letter, '-', digits, a newline, an invalid
// byte, a two-byte character), and 20,000 random longer ones.
func TestSplitOrdinalNameIsTheRegexp(t *testing.T) {
	re := regexp.MustCompile(`(.*)-([0-9]+)$`) // upstream's statefulPodRegex
	n, matched := 0, 0
	check := func(s string) {
		t.Helper()
		n++
		parent, ordinal, ok := splitOrdinalName(s)
		m := re.FindStringSubmatch(s)
		if ok != (m != nil) || ok && (parent != m[1] || ordinal != m[2]) {
			t.Fatalf("splitOrdinalName(%q) = %q, %q, %v; the regexp matches %q", s, parent, ordinal, ok, m)
		}
		if ok {
			matched++
		}
	}
	alphabet := []string{"a", "-", "0", "9", "\n", "\xff", "é"}
	var all func(prefix string, left int)
	all = func(prefix string, left int) {
		check(prefix)
		if left == 0 {
			return
		}
		for _, c := range alphabet {
			all(prefix+c, left-1)
		}
	}
	all("", 7)
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for k := r.Intn(40); k > 0; k-- {
			if r.Intn(4) == 0 {
				b.WriteString(alphabet[r.Intn(len(alphabet))])
			} else {
				b.WriteByte(byte(r.Intn(256)))
			}
		}
		if r.Intn(2) == 0 { // often of the form, to reach the match's groups
			b.WriteString("-" + strings.Repeat("7", 1+r.Intn(3)))
		}
		check(b.String())
	}
	if matched < 10000 || n-matched < 10000 {
		t.Fatalf("%d strings checked, %d matched: too few of one kind", n, matched)
	}
}

// TestParentNameAndOrdinal: upstream parses the ordinal as a 32-bit
// number and keeps the parent when it does not fit, so a Pod whose
// number is too large is its set's but has no ordinal (the sync then
// neither keeps nor condemns it).
func TestParentNameAndOrdinal(t *testing.T) {
	for _, c := range []struct {
		name   string
		parent string
		ord    int
	}{
		{"web-0", "web", 0},
		{"web-2147483647", "web", 2147483647},
		{"web-2147483648", "web", -1},
		{"web-99999999999999999999", "web", -1},
		{"my-web-007", "my-web", 7},
		{"web", "", -1},
		{"web-", "", -1},
		{"web-1a", "", -1},
	} {
		pod := &fakeapi.Object{}
		pod.Metadata.Name = c.name
		if p, n := getParentNameAndOrdinal(pod); p != c.parent || n != c.ord {
			t.Errorf("getParentNameAndOrdinal(%q) = %q, %d; want %q, %d", c.name, p, n, c.parent, c.ord)
		}
	}
}
