package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
)

// harness stands in for the *testing.T that upstream's test-server helper
// (cmd/kube-apiserver/app/testing.StartTestServer) expects: the runner is
// a program, not a test. Logs go to the run's log file; cleanups run, last
// registered first, when the cluster stops; a fatal error panics with
// fatalError, which StartCluster recovers into an ordinary error.
type harness struct {
	name string
	log  io.Writer

	mu       sync.Mutex
	failed   bool
	cleanups []func()
	tempDirs []string
}

// fatalError is what Fatal and FailNow panic with.
type fatalError struct{ msg string }

func (e fatalError) Error() string { return e.msg }

func newHarness(name string, log io.Writer) *harness { return &harness{name: name, log: log} }

func (h *harness) Cleanup(f func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cleanups = append(h.cleanups, f)
}

// runCleanups runs the registered cleanups in reverse order and removes
// the temporary directories.
func (h *harness) runCleanups() {
	for {
		h.mu.Lock()
		n := len(h.cleanups)
		if n == 0 {
			h.mu.Unlock()
			break
		}
		f := h.cleanups[n-1]
		h.cleanups = h.cleanups[:n-1]
		h.mu.Unlock()
		f()
	}
	h.mu.Lock()
	dirs := h.tempDirs
	h.tempDirs = nil
	h.mu.Unlock()
	for _, d := range dirs {
		os.RemoveAll(d)
	}
}

func (h *harness) Error(args ...any) { h.Log(args...); h.Fail() }
func (h *harness) Errorf(format string, args ...any) {
	h.Logf(format, args...)
	h.Fail()
}
func (h *harness) Fail() {
	h.mu.Lock()
	h.failed = true
	h.mu.Unlock()
}
func (h *harness) FailNow() { h.Fail(); panic(fatalError{"FailNow"}) }
func (h *harness) Failed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.failed
}
func (h *harness) Fatal(args ...any) {
	h.Log(args...)
	h.Fail()
	panic(fatalError{fmt.Sprint(args...)})
}
func (h *harness) Fatalf(format string, args ...any) {
	h.Logf(format, args...)
	h.Fail()
	panic(fatalError{fmt.Sprintf(format, args...)})
}
func (h *harness) Helper()                          {}
func (h *harness) Log(args ...any)                  { fmt.Fprintln(h.log, args...) }
func (h *harness) Logf(format string, args ...any)  { fmt.Fprintf(h.log, format+"\n", args...) }
func (h *harness) Name() string                     { return h.name }
func (h *harness) Setenv(key, value string)         { os.Setenv(key, value) }
func (h *harness) Skip(args ...any)                 { h.Fatal(args...) }
func (h *harness) SkipNow()                         { h.FailNow() }
func (h *harness) Skipf(format string, args ...any) { h.Fatalf(format, args...) }
func (h *harness) Skipped() bool                    { return false }
func (h *harness) TempDir() string {
	d, err := os.MkdirTemp("", "gcplay-conformance-")
	if err != nil {
		panic(fatalError{err.Error()})
	}
	h.mu.Lock()
	h.tempDirs = append(h.tempDirs, d)
	h.mu.Unlock()
	return d
}

// The methods newer testing.TB versions have, which newer releases of
// upstream's ktesting.TB ask for.

func (h *harness) Attr(key, value string)   { h.Logf("attr %s=%s", key, value) }
func (h *harness) Output() io.Writer        { return h.log }
func (h *harness) Chdir(dir string)         { _ = os.Chdir(dir) }
func (h *harness) Context() context.Context { return context.Background() }
