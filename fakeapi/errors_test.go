package fakeapi

import (
	"strings"
	"testing"
)

// NewNotFound words its message as fmt's "%s %q not found" does, for
// names that need no escape and names that do.
func TestNewNotFoundWording(t *testing.T) {
	for _, name := range []string{"web-5d8c7f00-00000", "", `a"b`, "tab\there", "ünï", "\x00\xff", strings.Repeat("long-", 30)} {
		got := NewNotFound("pods", name)
		want := NewError(ReasonNotFound, "%s %q not found", "pods", name)
		if *got != *want {
			t.Errorf("NewNotFound(%q) = %+v, want %+v", name, *got, *want)
		}
	}
}
