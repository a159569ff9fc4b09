//go:build js

// This file is gcplay's own, not colorprofile's. build.sh copies it into a
// private copy of the pinned github.com/charmbracelet/colorprofile module
// for the browser build, after replacing the tmux probe's
// exec.CommandContext(..., "tmux", "info") with a noTmux; it is never
// compiled as part of gcplay itself.
//
// A page cannot run a process: on js os/exec's Output fails, so the probe
// falls back to its default. noTmux fails the same way without linking
// os/exec.

package colorprofile

import "errors"

// noTmux is the `tmux info` command the browser cannot run.
type noTmux struct{}

// Output fails, as running any command does on js.
func (noTmux) Output() ([]byte, error) { return nil, errors.ErrUnsupported }
