package tui

import (
	"maps"
	"slices"
)

// Files is the file access the playground needs for save, load and export.
// The model never opens files itself: the terminal build passes one backed
// by the operating system, the browser build one backed by the page, and
// tests a MemFiles.
type Files interface {
	ReadFile(name string) ([]byte, error)
	WriteFile(name string, data []byte) error
}

// MemFiles is an in-memory Files, for tests and for builds without a file
// system. The zero value is not usable; make one with NewMemFiles.
type MemFiles struct{ files map[string][]byte }

// NewMemFiles returns a MemFiles holding the given files.
func NewMemFiles(files map[string][]byte) *MemFiles {
	m := &MemFiles{files: map[string][]byte{}}
	for k, v := range files {
		m.files[k] = slices.Clone(v)
	}
	return m
}

// ReadFile returns a copy of the named file.
func (m *MemFiles) ReadFile(name string) ([]byte, error) {
	b, ok := m.files[name]
	if !ok {
		return nil, errorf("open %s: no such file", name)
	}
	return slices.Clone(b), nil
}

// WriteFile stores a copy of data under name.
func (m *MemFiles) WriteFile(name string, data []byte) error {
	m.files[name] = slices.Clone(data)
	return nil
}

// Names returns the stored file names, sorted.
func (m *MemFiles) Names() []string { return slices.Sorted(maps.Keys(m.files)) }

// noFiles is the Files of a model given none: every access fails.
type noFiles struct{}

func (noFiles) ReadFile(name string) ([]byte, error) {
	return nil, errorf("open %s: this build of gcplay has no file access", name)
}

func (noFiles) WriteFile(name string, _ []byte) error {
	return errorf("write %s: this build of gcplay has no file access", name)
}
