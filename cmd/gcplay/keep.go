package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gcplay/gcplay/scenario"
	"github.com/gcplay/gcplay/share"
	"github.com/gcplay/gcplay/tui"
)

// The playground's world is kept when it is left with q, so one key never
// loses what a learner built: the next bare gcplay offers to resume it. It
// is kept as a share link (the form the browser page keeps in
// localStorage) in the user's config directory.

// keptPath is where the playground's last world is kept.
func keptPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "gcplay", "playground.link"), nil
}

// keep writes the playground's world, its timeline and breakpoints to
// path.
func keep(m *tui.Model, path string) error {
	origin, start, h := m.Timeline()
	// The starter world is kept as its source, which runs to the start
	// world exactly. Any other start world is kept as a scenario of its
	// objects: the file it came from may have changed or gone by the next
	// start, and its steps are in the timeline (play FILE), so its source
	// would run them twice.
	name, src := tui.StarterScenario()
	if origin.File != name {
		var err error
		if src, err = scenario.Save(start, origin.Name); err != nil {
			return err
		}
	}
	l, err := share.New(origin.File, src, h)
	if err != nil {
		return err
	}
	l.Breakpoints = share.NewBreakpoints(m.Breakpoints())
	text, err := l.Encode()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

// kept reads the world kept at path: nil when there is none.
func kept(path string) (*tui.Resume, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	l, err := share.Decode(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	o, err := l.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	what := l.File
	if name, _ := tui.StarterScenario(); what == name {
		what = "the starter world"
	}
	r := &tui.Resume{Origin: o.Origin, Start: o.Start, History: o.History, Note: o.Note,
		What: fmt.Sprintf("%s, at step %d of %d", what, o.History.Pos(), o.History.Len())}
	if st, err := os.Stat(path); err == nil {
		r.What += ", kept " + st.ModTime().Format("2006-01-02 15:04")
	}
	if b := l.Breakpoints; b != nil {
		r.Orphan, r.Watch = b.Orphan, b.Watched()
	}
	return r, nil
}
