//go:build js && wasm

package main

import (
	"fmt"
	"strings"
	"syscall/js"
)

// filePrefix is the localStorage key prefix of the files the playground
// writes and the page uploads.
const filePrefix = "gcplay.file/"

// webFiles is the playground's file access in the browser. Files live in
// localStorage, so load finds what save wrote, and what was uploaded,
// across reloads. A save or an export is also offered as a download
// (the learner's real copy), except for names that start with a dot, which
// are the playground's own state (lesson progress, for instance).
type webFiles struct {
	// sources remembers every file read, by name: a world that started
	// from a file needs its source to make a share link.
	sources map[string][]byte
}

func newWebFiles() *webFiles { return &webFiles{sources: map[string][]byte{}} }

func (f *webFiles) ReadFile(name string) ([]byte, error) {
	v := js.Global().Get("gcplayStore").Call("get", filePrefix+name)
	if v.IsNull() || v.IsUndefined() {
		return nil, fmt.Errorf("open %s: no such file in this browser (open one from your computer with the page's Open button; save writes here too)", name)
	}
	b := []byte(v.String())
	f.sources[name] = b
	return b, nil
}

func (f *webFiles) WriteFile(name string, data []byte) error {
	stored := js.Global().Get("gcplayStore").Call("set", filePrefix+name, string(data)).Truthy()
	if strings.HasPrefix(name, ".") {
		if !stored {
			return fmt.Errorf("write %s: the browser's storage is full or disabled", name)
		}
		return nil
	}
	js.Global().Call("gcplayDownload", baseName(name), toJS(data))
	return nil
}

func baseName(name string) string { return name[strings.LastIndexAny(name, "/\\")+1:] }
