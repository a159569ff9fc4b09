package fakeapi

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// The hand-written name matchers accept exactly what apimachinery's
// regular expressions accept: checked on every string of up to four
// characters from an alphabet with each kind of character that matters,
// and on random longer ones.
func TestNameMatchersAgreeWithRegexps(t *testing.T) {
	checks := []struct {
		name  string
		re    *regexp.Regexp
		match func(string) bool
	}{
		{"dns1123Label", regexp.MustCompile("^" + dns1123LabelFmt + "$"), matchDNS1123Label},
		{"dns1123Subdomain", regexp.MustCompile("^" + dns1123SubdomainFmt + "$"), matchDNS1123Subdomain},
		{"dns1035Label", regexp.MustCompile("^" + dns1035LabelFmt + "$"), matchDNS1035Label},
		{"qualifiedName", regexp.MustCompile("^" + qualifiedNameFmt + "$"), matchQualifiedName},
	}
	const alphabet = "aZ0-._/ é"
	var all []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		all = append(all, prefix)
		if n == 0 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			grow(prefix+alphabet[i:i+1], n-1)
		}
	}
	grow("", 4)
	r := rand.New(rand.NewPCG(7, 8))
	for range 50_000 {
		b := make([]byte, 5+r.IntN(20))
		for i := range b {
			b[i] = "abz09-.AZ_"[r.IntN(10)]
		}
		all = append(all, string(b))
	}
	for _, c := range checks {
		for _, s := range all {
			if got, want := c.match(s), c.re.MatchString(s); got != want {
				t.Errorf("%s(%q) = %v, the regular expression says %v", c.name, s, got, want)
			}
		}
	}
}
