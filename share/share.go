// Package share turns a playground's world into a share link and back.
//
// A link holds a scenario and a timeline: the scenario file the world
// started from (its source text, as written: the built-in starter, a file
// the learner opened, or the start of an earlier link), then every action
// of the playground's timeline since, in order, and the position in it.
// Opening a link runs the scenario and replays the actions: the world is
// deterministic (UIDs, resourceVersions and the clock come from counters),
// so the replay gives back the same world, the same records and the same
// timeline, which can be rewound and stepped as before. The scenario is
// kept as text rather than as the world it left because a saved world
// (scenario.Save) comes back with the collector's memory rebuilt from a
// fresh list, not as it was.
//
// The link is the JSON form of Link, compressed with DEFLATE and encoded
// as unpadded base64url, for the URL fragment (#s=...), which browsers
// never send to a server.
package share

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// Version is the format version written into every link.
const Version = 1

// maxLink bounds what a link may expand to (a bad or hostile link must not
// exhaust the page's memory).
const maxLink = 16 << 20

// Link is a world as a link holds it.
type Link struct {
	V int `json:"v"`
	// File is the name the scenario was opened under, for messages.
	File string `json:"file"`
	// Scenario is the source of the scenario file the world started from.
	Scenario string `json:"scenario"`
	// Actions is the timeline, oldest first.
	Actions []Action `json:"actions,omitempty"`
	// Pos is the current position in the timeline: how many engine
	// actions are applied (a Step entry of N counts N). It is below the
	// total when the user went back.
	Pos int `json:"pos"`
	// Breakpoints are the playground's breakpoints; absent when none is
	// set (and in links made before they were kept).
	Breakpoints *Breakpoints `json:"breakpoints,omitempty"`
}

// Breakpoints are where autoplay and run stop: when attemptToOrphan gets
// an item, and when a watched object changes.
type Breakpoints struct {
	Orphan bool `json:"orphan,omitempty"`
	// Watch lists the watched objects, by UID (UIDs come out the same on
	// every replay of the timeline), sorted by UID.
	Watch []Watch `json:"watch,omitempty"`
}

// Watch is one watched object: its UID and the name the playground shows.
type Watch struct {
	UID  string `json:"uid"`
	Name string `json:"name"`
}

// NewBreakpoints returns the breakpoints of a playground that stops on
// attemptToOrphan when orphan is set and on changes to the objects of
// watch (UID to name), or nil when there are none.
func NewBreakpoints(orphan bool, watch map[string]string) *Breakpoints {
	if !orphan && len(watch) == 0 {
		return nil
	}
	b := &Breakpoints{Orphan: orphan}
	for _, uid := range slices.Sorted(maps.Keys(watch)) {
		b.Watch = append(b.Watch, Watch{UID: uid, Name: watch[uid]})
	}
	return b
}

// Watched returns the watched objects as UID to name (nil b has none).
func (b *Breakpoints) Watched() map[string]string {
	out := map[string]string{}
	if b != nil {
		for _, w := range b.Watch {
			out[w.UID] = w.Name
		}
	}
	return out
}

// Action is one entry of the timeline: exactly one field is set. Steps is
// a run of N steps from the same queue, kept as one entry.
type Action struct {
	Create  *fakeapi.Object `json:"create,omitempty"`
	Delete  *Delete         `json:"delete,omitempty"`
	Patch   *Patch          `json:"patch,omitempty"`
	Step    *Step           `json:"step,omitempty"`
	Advance string          `json:"advance,omitempty"`
	Restart string          `json:"restart,omitempty"`
	Inject  *fakeapi.Fault  `json:"inject,omitempty"`
	Exit    *Exit           `json:"exit,omitempty"`
	Undo    *Undo           `json:"rolloutUndo,omitempty"`
}

// Undo is kubectl rollout undo of a Deployment, StatefulSet or DaemonSet
// (engine.RolloutUndo): ToRevision 0 is the revision before the newest.
type Undo struct {
	Ref        fakeapi.Ref `json:"ref"`
	ToRevision int64       `json:"toRevision,omitempty"`
}

// Exit is the kubelet's report made by hand (engine.Exit): one Pod, or
// Count of the running Pods Selector matches in Namespace.
type Exit struct {
	Pod       *fakeapi.Ref `json:"pod,omitempty"`
	Selector  string       `json:"selector,omitempty"`
	Namespace string       `json:"namespace,omitempty"`
	Count     int          `json:"count,omitempty"`
	Code      int          `json:"code,omitempty"`
}

// Delete is a DELETE request of the timeline.
type Delete struct {
	Ref     fakeapi.Ref            `json:"ref"`
	Options *fakeapi.DeleteOptions `json:"options,omitempty"`
}

// Patch is a merge PATCH request of the timeline.
type Patch struct {
	Ref   fakeapi.Ref     `json:"ref"`
	Merge json.RawMessage `json:"merge"`
}

// Step is N steps from Queue ("" is the default order).
type Step struct {
	Queue string `json:"queue,omitempty"`
	N     int    `json:"n"`
}

// New makes the link of a world that the scenario source (opened as file)
// left as start, with timeline h built on it.
func New(file string, source []byte, h *engine.History) (*Link, error) {
	l := &Link{V: Version, File: file, Scenario: string(source), Pos: h.Pos()}
	for _, a := range h.Actions() {
		var e Action
		switch a := a.(type) {
		case engine.Create:
			e.Create = a.Object
		case engine.Delete:
			e.Delete = &Delete{Ref: a.Ref, Options: a.Options}
		case engine.Patch:
			e.Patch = &Patch{Ref: a.Ref, Merge: json.RawMessage(a.Merge)}
		case engine.Step:
			if n := len(l.Actions); n > 0 && l.Actions[n-1].Step != nil && l.Actions[n-1].Step.Queue == a.Queue {
				l.Actions[n-1].Step.N++
				continue
			}
			e.Step = &Step{Queue: a.Queue, N: 1}
		case engine.Advance:
			e.Advance = a.D.String()
		case engine.Restart:
			e.Restart = a.Controller
		case engine.Inject:
			f := a.Fault
			e.Inject = &f
		case engine.Exit:
			e.Exit = &Exit{Pod: a.Pod, Namespace: a.Namespace, Count: a.Count, Code: a.Code}
			if a.Selector != nil {
				e.Exit.Selector = a.Selector.String()
			}
		case engine.RolloutUndo:
			e.Undo = &Undo{Ref: a.Ref, ToRevision: a.ToRevision}
		default:
			return nil, fmt.Errorf("the timeline holds an action a link cannot carry: %s", a)
		}
		l.Actions = append(l.Actions, e)
	}
	return l, nil
}

// Encode returns the link as the text of a URL fragment's value.
func (l *Link) Encode() (string, error) {
	j, err := json.Marshal(l)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	zw, _ := flate.NewWriter(&buf, flate.BestCompression)
	if _, err := zw.Write(j); err != nil {
		return "", err
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(buf.Bytes()), nil
}

// Decode reads a link from the text Encode made. It accepts the text with
// or without a leading "#s=".
func Decode(text string) (*Link, error) {
	text = strings.TrimPrefix(strings.TrimSpace(text), "#")
	text = strings.TrimPrefix(text, "s=")
	z, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(text, "="))
	if err != nil {
		return nil, fmt.Errorf("the link is damaged (not base64url: %v); was it copied whole?", err)
	}
	j, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(z)), maxLink+1))
	if err != nil {
		return nil, fmt.Errorf("the link is damaged (cannot decompress it: %v); was it copied whole?", err)
	}
	if len(j) > maxLink {
		return nil, fmt.Errorf("the link expands to more than %d MB; gcplay does not open it", maxLink>>20)
	}
	var l Link
	if err := json.Unmarshal(j, &l); err != nil {
		return nil, fmt.Errorf("the link is damaged (%v)", err)
	}
	if l.V != Version {
		return nil, fmt.Errorf("the link is in format %d; this gcplay reads format %d", l.V, Version)
	}
	return &l, nil
}

// Opened is a link opened: what the playground needs to restore it.
type Opened struct {
	Origin *scenario.Scenario
	// Start is the world the scenario left; History is the timeline built
	// on a clone of it, at the link's position.
	Start   *engine.World
	History *engine.History
	// Replayed is how many engine actions were replayed; Note says why the
	// replay stopped early, if it did ("" when the whole timeline came back).
	Replayed int
	Note     string
}

// Open runs the link's scenario and replays its timeline.
func (l *Link) Open() (*Opened, error) {
	sc, start, err := RunScenario(l.File, []byte(l.Scenario))
	if err != nil {
		return nil, err
	}
	o := &Opened{Origin: sc, Start: start, History: engine.NewHistory(start.Clone())}
	h := o.History
	for i, e := range l.Actions {
		var acts []engine.Action
		switch {
		case e.Create != nil:
			acts = []engine.Action{engine.Create{Object: e.Create}}
		case e.Delete != nil:
			acts = []engine.Action{engine.Delete{Ref: e.Delete.Ref, Options: e.Delete.Options}}
		case e.Patch != nil:
			acts = []engine.Action{engine.Patch{Ref: e.Patch.Ref, Merge: []byte(e.Patch.Merge)}}
		case e.Step != nil:
			if e.Step.N < 1 || e.Step.N > scenario.DefaultMaxSteps {
				o.Note = fmt.Sprintf("entry %d of the timeline is a run of %d steps; the replay stopped there", i, e.Step.N)
				break
			}
			for range e.Step.N {
				acts = append(acts, engine.Step{Queue: e.Step.Queue})
			}
		case e.Advance != "":
			d, err := time.ParseDuration(e.Advance)
			if err != nil || d < 0 {
				o.Note = fmt.Sprintf("entry %d of the timeline advances the clock by %q; the replay stopped there", i, e.Advance)
				break
			}
			acts = []engine.Action{engine.Advance{D: d}}
		case e.Restart != "":
			acts = []engine.Action{engine.Restart{Controller: e.Restart}}
		case e.Inject != nil:
			acts = []engine.Action{engine.Inject{Fault: *e.Inject}}
		case e.Exit != nil:
			a := engine.Exit{Pod: e.Exit.Pod, Namespace: e.Exit.Namespace, Count: e.Exit.Count, Code: e.Exit.Code}
			if a.Pod == nil {
				sel, err := scenario.ParseSelector(e.Exit.Selector)
				if err != nil {
					o.Note = fmt.Sprintf("entry %d of the timeline has a bad selector (%v); the replay stopped there", i, err)
					break
				}
				a.Selector = &sel
			}
			acts = []engine.Action{a}
		case e.Undo != nil:
			acts = []engine.Action{engine.RolloutUndo{Ref: e.Undo.Ref, ToRevision: e.Undo.ToRevision}}
		default:
			o.Note = fmt.Sprintf("entry %d of the timeline is empty or of a kind this gcplay does not know; the replay stopped there", i)
		}
		if o.Note != "" {
			break
		}
		for _, a := range acts {
			_, err := h.Do(a)
			o.Replayed++
			// A step that failed (an injected fault, a conflict) is part
			// of the timeline: its record says so. A user request that
			// fails now did not fail when it was made, so the world
			// differs from the one shared: stop there.
			if _, isStep := a.(engine.Step); err != nil && !isStep {
				o.Note = fmt.Sprintf("the timeline could not be replayed past step %d (%s: %v)", h.Len(), a, err)
				break
			}
		}
		if o.Note != "" {
			break
		}
	}
	pos := min(max(l.Pos, 0), h.Len())
	if err := h.Goto(pos); err != nil {
		return nil, err
	}
	return o, nil
}

// RunScenario parses and runs a scenario file into the world it leaves,
// as the playground's load does: the run must pass.
func RunScenario(file string, data []byte) (*scenario.Scenario, *engine.World, error) {
	sc, err := scenario.Parse(file, data)
	if err != nil {
		return nil, nil, err
	}
	res := scenario.Run(sc, scenario.RunOptions{WorldOnly: true})
	if res.InternalError != "" {
		return nil, nil, fmt.Errorf("%s: gcplay broke while running it: %s", file, res.InternalError)
	}
	if err := res.Err(); err != nil {
		return nil, nil, err
	}
	if res.World == nil {
		return nil, nil, errors.New(file + ": the run left no world")
	}
	return sc, res.World, nil
}
