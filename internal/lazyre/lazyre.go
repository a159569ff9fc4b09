// Package lazyre holds regular expressions compiled on their first use
// rather than at package initialization: a program that never matches
// one (most never see a lesson's lint or a YAML error) does not pay for
// compiling it when it starts. In the browser build every package's
// initialization runs before the first frame, in WebAssembly.
package lazyre

import (
	"regexp"
	"sync"
)

// RE is a regular expression compiled on its first use.
type RE struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// New returns expr, to be compiled by the first Get. An invalid
// expression panics there, as regexp.MustCompile does.
func New(expr string) *RE { return &RE{expr: expr} }

// Get returns the compiled expression.
func (r *RE) Get() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}
