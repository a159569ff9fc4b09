package yaml

import (
	"math/rand"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The expressions as the pinned yaml v2 and v3 write them; build.sh's
// edit replaces exactly these lines, and fails if they change.
const (
	yamlStyleFloatExpr = `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
	base60floatExpr    = `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`
)

// TestFloatMatchersAreTheRegexps holds each matcher to its regexp on
// every string of up to 6 bytes from an alphabet of the characters the
// expressions name and a few others, and on 200,000 random strings made
// of those, longer digit runs, a newline, an invalid byte and an Arabic
// digit.
func TestFloatMatchersAreTheRegexps(t *testing.T) {
	for _, c := range []struct {
		name  string
		expr  string
		match func(string) bool
	}{
		{"yamlStyleFloat", yamlStyleFloatExpr, gcplayYAMLStyleFloat{}.MatchString},
		{"base60float", base60floatExpr, gcplayBase60Float{}.MatchString},
	} {
		re := regexp.MustCompile(c.expr)
		alphabet, depth := "-+.:_069eEa", 6
		if testing.Short() {
			alphabet, depth = "-+.:_06e", 5
		}
		n, matched := 0, 0
		var all func(s string, depth int) bool
		all = func(s string, depth int) bool {
			n++
			want := re.MatchString(s)
			if got := c.match(s); got != want {
				t.Errorf("%s on %q: %v, the regexp %v", c.name, s, got, want)
				return false
			}
			if want {
				matched++
			}
			if depth == 0 {
				return true
			}
			for i := 0; i < len(alphabet); i++ {
				if !all(s+alphabet[i:i+1], depth-1) {
					return false
				}
			}
			return true
		}
		all("", depth)
		r := rand.New(rand.NewSource(1))
		pieces := []string{"-", "+", ".", ":", "_", "0", "1", "5", "6", "9", "e", "E", "x", "\n", "\xff", "٣", "12", "59", "60", ":3", "123"}
		for range 200000 {
			var b strings.Builder
			for k := r.Intn(12); k > 0; k-- {
				b.WriteString(pieces[r.Intn(len(pieces))])
			}
			s := b.String()
			n++
			want := re.MatchString(s)
			if c.match(s) != want {
				t.Fatalf("%s on %q: %v, the regexp %v", c.name, s, !want, want)
			}
			if want {
				matched++
			}
		}
		if matched < 1000 {
			t.Errorf("%s: only %d of the strings matched", c.name, matched)
		}
		t.Logf("%s: %d strings, %d matched", c.name, n, matched)
	}
}

// TestBuildEditsTheseExpressions checks that build.sh replaces the lines
// that hold the expressions the matchers are held to.
func TestBuildEditsTheseExpressions(t *testing.T) {
	b, err := os.ReadFile("../build.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, expr := range []string{yamlStyleFloatExpr, base60floatExpr} {
		// build.sh writes the expression in a sed address, its special
		// characters quoted.
		q := strings.NewReplacer(`\`, `\\`, `.`, `\.`, `[`, `\[`, `]`, `\]`, `*`, `\*`, `^`, `\^`, `$`, `\$`).Replace(expr)
		if !strings.Contains(string(b), "MustCompile(`"+q+"`)$/") {
			t.Errorf("build.sh does not replace the line of `%s` (looked for %s)", expr, q)
		}
	}
}
