package main

import (
	"os"
	"syscall"

	"github.com/gcplay/gcplay/scenario"
)

// giveBack lets the reader of the dump text data, read from the file name
// into memory of its own (readOffHeap), give back the pages of the text
// it has read (madvise MADV_DONTNEED: the pages leave the process's
// resident memory, and would read as zeros), so that the text and the
// objects read from it are not all held at once. Should the reader have
// to read the text again from its start, the file is read again.
func giveBack(name string, data []byte) *scenario.TextRelease {
	page := os.Getpagesize()
	done := 0
	return &scenario.TextRelease{
		Release: func(n int) {
			n = min(n, len(data)) &^ (page - 1)
			if n <= done {
				return
			}
			if syscall.Madvise(data[done:n], syscall.MADV_DONTNEED) == nil {
				done = n
			}
		},
		Reload: func() error {
			if done == 0 {
				return nil
			}
			if err := reloadText(name, data); err != nil {
				return err
			}
			done = 0
			return nil
		},
	}
}
