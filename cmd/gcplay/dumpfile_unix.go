//go:build unix

package main

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// readOffHeap reads a regular file of at least offHeapMin bytes into
// anonymous memory of its own (mmap), outside Go's heap; ok is false
// when it did not (a small or special file, a file that grew while it
// was read, or no memory mapped), and the caller reads the file as usual.
// The file is copied, not mapped: a file truncated by another program
// while it is parsed cannot fault the reader.
func readOffHeap(name string) (t dumpText, ok bool, err error) {
	f, err := os.Open(name)
	if err != nil {
		return dumpText{}, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() < offHeapMin || fi.Size() >= 1<<40 {
		return dumpText{}, false, nil
	}
	// One byte more than the size, to see the end of the file.
	mem, err := syscall.Mmap(-1, 0, int(fi.Size())+1, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return dumpText{}, false, nil
	}
	free := func() { _ = syscall.Munmap(mem) }
	n, err := io.ReadFull(f, mem)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		data := mem[:n:n]
		return dumpText{data: data, free: free, release: giveBack(name, data)}, true, nil
	case err != nil:
		free()
		return dumpText{}, true, err
	}
	// The file grew while it was read.
	free()
	return dumpText{}, false, nil
}

// reloadText reads name into data again, whole: the file must be as
// long as data still.
func reloadText(name string, data []byte) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := io.ReadFull(f, data); err != nil {
		return errors.New("the file changed while it was read")
	}
	if n, _ := f.Read(make([]byte, 1)); n > 0 {
		return errors.New("the file changed while it was read")
	}
	return nil
}
