package tui

import (
	"charm.land/bubbles/v2/key"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/scenario"
)

// Resume is a session kept from the last time the playground was left: q
// never loses a learner's world. The playground opens offering it; the
// caller (gcplay) keeps and reads it, the model does no I/O.
type Resume struct {
	// Origin, Start and History are the kept world, as Restore takes them.
	Origin  *scenario.Scenario
	Start   *engine.World
	History *engine.History
	// Orphan and Watch are its breakpoints.
	Orphan bool
	Watch  map[string]string
	// What describes it in a few words ("the starter world, step 12 of
	// 12, kept 2026-01-02 15:04").
	What string
	// Note says what could not be restored, if anything.
	Note string
}

// resumeKeyMap is the keys of the offer to resume a kept session.
type resumeKeyMap struct{ Resume, Fresh key.Binding }

var resumeKeys = resumeKeyMap{
	Resume: bind("enter", "resume it", "enter", "r", "y"),
	Fresh:  bind("n", "start fresh (the kept session is dropped)", "n", "esc"),
}

// Resumed reports whether the learner chose to resume the kept session:
// the caller drops it when the playground ends and it was not (and
// nothing new was built).
func (m *Model) Resumed() bool { return m.resumed }

// Declined reports whether the learner chose to start fresh rather than
// resume the kept session.
func (m *Model) Declined() bool { return m.declined }

// Built reports whether the world has a timeline worth keeping: the user
// acted or stepped since it was opened.
func (m *Model) Built() bool { return m.s.h.Len() > 0 }

// resume takes up the kept session.
func (m *Model) resume() {
	r := m.opts.Resume
	m.mode = modeNormal
	m.Restore(r.Origin, r.Start, r.History, m.sayText("Resumed %s. %s moves back along its timeline; %s lists every key.",
		r.What, kn(m.keys.BackFull), kn(m.keys.Help)))
	m.SetBreakpoints(r.Orphan, r.Watch)
	if r.Note != "" {
		m.setMsg(msgWarn, m.sayText("Partly resumed: %s. %s", r.Note, m.msg))
	}
	m.resumed = true
}

// startFresh declines the kept session.
func (m *Model) startFresh() {
	m.mode = modeNormal
	m.declined = true
	m.sayMsg(msgInfo, "Started fresh; the kept session is dropped once you quit. %s lists every key.", kn(m.keys.Help))
}

func (m *Model) resumeLines(width int) overlayText {
	t := &m.th
	r := m.opts.Resume
	var out []string
	for _, s := range wrap(m.sayText("You left the playground with a world of your own: %s. It was kept, with its timeline.", r.What), width-1) {
		out = append(out, t.text.Render(s))
	}
	if r.Note != "" {
		out = append(out, "")
		for _, s := range wrap(m.sayText("Not all of it can come back: %s.", r.Note), width-1) {
			out = append(out, t.warn.Render(s))
		}
	}
	return overlayText{title: m.tr.T("resume-title"), body: out, footer: footerLines(t, m.keyHints(m.viewKeys()...), width)}
}
