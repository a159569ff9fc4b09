package fakeapi

import (
	"strings"
	"testing"
)

// NewNotFound words its message as fmt's "%s %q not found" does, for
// names that need no escape and names that do.
func TestNewNotFoundWording(t *testing.T) {
	names := []string{"web-5d8c7f00-00000", "", `a"b`, "tab\there", "ünï", "\x00\xff", strings.Repeat("long-", 30), `back\slash`, "~ !"}
	// Every byte alone and inside a name: the plain names' short cut
	// and strconv's quoting must word each alike.
	for c := range 256 {
		names = append(names, string(rune(c)), "pod-"+string([]byte{byte(c)})+"-x")
	}
	for _, name := range names {
		got := NewNotFound("pods", name)
		want := NewError(ReasonNotFound, "%s %q not found", "pods", name)
		if *got != *want {
			t.Errorf("NewNotFound(%q) = %+v, want %+v", name, *got, *want)
		}
	}
}
