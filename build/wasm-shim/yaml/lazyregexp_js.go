//go:build js

// This file is gcplay's own, not yaml's. build.sh copies it into private
// copies of the pinned go.yaml.in/yaml/v2 and v3 modules for the browser
// build, after changing their two package-level regexps (yamlStyleFloat in
// resolve.go, base60float in encode.go) from regexp.MustCompile(expr) to
// gcplayLazyRegexp(func() *regexp.Regexp { return regexp.MustCompile(expr) });
// it is never compiled as part of gcplay itself.
//
// Every package's initialization runs before the page's first frame, and
// those two compiles were most of the regexp code V8 compiled for it; the
// page reads YAML whose scalars look like floats, or writes strings that
// look like base 60 floats, only after its first frame (if ever).

package yaml

import (
	"regexp"
	"sync"
)

// gcplayRegexp is a regexp compiled on its first match.
type gcplayRegexp struct {
	once    sync.Once
	compile func() *regexp.Regexp
	re      *regexp.Regexp
}

func gcplayLazyRegexp(compile func() *regexp.Regexp) *gcplayRegexp {
	return &gcplayRegexp{compile: compile}
}

// MatchString is regexp.Regexp's, the regexp compiled on its first call.
func (r *gcplayRegexp) MatchString(s string) bool {
	r.once.Do(func() { r.re = r.compile() })
	return r.re.MatchString(s)
}
