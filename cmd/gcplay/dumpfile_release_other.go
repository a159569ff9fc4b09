//go:build unix && !linux

package main

import "github.com/gcplay/gcplay/scenario"

// giveBack gives nothing back where the system's madvise is not known to
// drop an anonymous mapping's pages: the text is held whole until it is
// parsed, as before.
func giveBack(string, []byte) *scenario.TextRelease { return nil }
