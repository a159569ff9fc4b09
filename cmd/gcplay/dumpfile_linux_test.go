package main

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/gcplay/gcplay/scenario"
)

// TestDumpTextGivenBack: on Linux a large dump's text can be given back as
// it is read: the pages given back leave the text (they read as zeros),
// the rest stays; read again, the text is the file's, unless the file has
// changed meanwhile. And the dump so read is the dump read whole.
func TestDumpTextGivenBack(t *testing.T) {
	path := bigDump(t)
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text, err := readDumpText(path)
	if err != nil {
		t.Fatal(err)
	}
	defer text.free()
	if text.release == nil {
		t.Fatal("a large dump's text cannot be given back")
	}
	page := os.Getpagesize()
	n := 3*page + 100
	text.release.Release(n)
	if got := text.data[:3*page]; !bytes.Equal(got, make([]byte, len(got))) {
		t.Errorf("the pages given back still hold the text")
	}
	if !bytes.Equal(text.data[3*page:], want[3*page:]) {
		t.Errorf("the text after the pages given back changed")
	}
	if err := text.release.Reload(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(text.data, want) {
		t.Fatalf("the text read again is not the file's")
	}

	// Parsed so, the scenario is the one the whole text gives.
	s, err := text.parse(path)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := scenario.ParseFile(path, want)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, whole) {
		t.Errorf("the dump read with its text given back differs from the dump read whole")
	}

	// A file that changed is not read again as if it had not.
	text.release.Release(n)
	if err := os.WriteFile(path, append(bytes.Clone(want), "\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := text.release.Reload(); err == nil {
		t.Errorf("a file that grew was read again without an error")
	}
}
