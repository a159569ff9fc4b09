//go:build js

// Package terminfo stands in for github.com/xo/terminfo in the browser
// build only: build.sh copies this file, with a go.mod naming that module,
// into the git-ignored build/wasm/ area and replaces the module with it. It
// is gcplay's own, not a copy of the library.
//
// In the browser a terminfo database cannot be read: the page has no file
// system (wasm_exec.js answers every open with ENOSYS) and the environment
// holds only TERM and COLORTERM, so the library's Load always fails there.
// Its two callers in the page, colorprofile's Terminfo and ultraviolet's
// terminfo key table, only test that failure and fall back. This stand-in
// fails the same way without linking the loader, os/user and the parser.
package terminfo

import "errors"

// ErrDatabaseDirectoryNotFound is the error Load returns, as the library's
// does when no directory holds the terminal's description.
var ErrDatabaseDirectoryNotFound = errors.New("database directory not found")

// Terminfo is a terminal's description. Load never returns one.
type Terminfo struct{}

// Load fails: there is no terminfo database in the browser.
func Load(name string) (*Terminfo, error) { return nil, ErrDatabaseDirectoryNotFound }

// ExtBoolCapsShort returns no capabilities.
func (ti *Terminfo) ExtBoolCapsShort() map[string]bool { return nil }

// StringCapsShort returns no capabilities.
func (ti *Terminfo) StringCapsShort() map[string][]byte { return nil }

// ExtStringCapsShort returns no capabilities.
func (ti *Terminfo) ExtStringCapsShort() map[string][]byte { return nil }
