package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// String is the record's one-line trace form, used by `gcplay run --trace`,
// the TUI's timeline and test expectations alike.
func (r Record) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s %s", r.Seq, fmtElapsed(r.At), r.Actor)
	if r.Item != "" {
		b.WriteString(" " + r.Item)
	}
	if r.Reason.Code != "" {
		b.WriteString(": " + r.Reason.Code)
	}
	if r.Reason.Message != "" {
		b.WriteString(" — " + r.Reason.Message)
	}
	if r.Reason.Rule != "" {
		b.WriteString(" [" + r.Reason.Rule + "]")
	}
	return b.String()
}

// Detail is the record's full text form: the trace line, then the API
// calls, the enqueued items, the notes and the error, one per line.
func (r Record) Detail() string {
	var b strings.Builder
	b.WriteString(r.String())
	b.WriteByte('\n')
	if r.Reason.Func != "" {
		fmt.Fprintf(&b, "  upstream: %s\n", r.Reason.Func)
	}
	for _, c := range r.Calls() {
		fmt.Fprintf(&b, "  call: %s\n", CallString(c))
	}
	for _, e := range r.Enqueued() {
		if e.After > 0 {
			fmt.Fprintf(&b, "  enqueue: %s %s after %s\n", e.Queue, e.Item, e.After)
		} else {
			fmt.Fprintf(&b, "  enqueue: %s %s\n", e.Queue, e.Item)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	if r.Err != "" {
		fmt.Fprintf(&b, "  error: %s\n", r.Err)
	}
	return b.String()
}

// CallString formats one API request the way the trace shows it:
// "DELETE Pod/p (propagationPolicy=Background) -> 200".
func CallString(c fakeapi.Request) string {
	target := c.Ref.String()
	if c.Ref.Name == "" {
		target = c.Ref.Kind + " (all namespaces)"
		if c.Ref.Namespace != "" {
			target = c.Ref.Kind + " -n " + c.Ref.Namespace
		}
	}
	s := strings.ToUpper(c.Verb) + " " + target
	if c.Detail != "" {
		s += " " + c.Detail
	}
	s += fmt.Sprintf(" -> %d", c.Code)
	if c.Reason != "" {
		s += " " + string(c.Reason)
	}
	if c.Injected {
		s += " (injected)"
	}
	return s
}

// FormatElapsed formats a virtual time offset as the trace does ("+1.5s").
func FormatElapsed(d time.Duration) string { return fmtElapsed(d) }

// Enqueued returns what the step added to queues, in order.
func (r Record) Enqueued() []Enqueue {
	if len(r.enqueued) == 0 {
		return nil
	}
	out := make([]Enqueue, len(r.enqueued))
	for i, e := range r.enqueued {
		out[i] = e.unpack()
	}
	return out
}

// Calls returns the API requests the step made, in order, with their
// answers.
func (r Record) Calls() []fakeapi.Request {
	if len(r.calls) == 0 {
		return nil
	}
	out := make([]fakeapi.Request, len(r.calls))
	for i := range r.calls {
		out[i] = r.calls[i].request()
	}
	return out
}

// recordJSON is a Record's JSON form: its fields, with its calls.
type recordJSON struct {
	Seq      int               `json:"seq"`
	At       time.Duration     `json:"at"`
	Actor    string            `json:"actor"`
	Item     string            `json:"item"`
	Reason   Reason            `json:"reason"`
	Calls    []fakeapi.Request `json:"calls,omitempty"`
	Enqueued []Enqueue         `json:"enqueued,omitempty"`
	Changed  []string          `json:"changed,omitempty"`
	Notes    []string          `json:"notes,omitempty"`
	Err      string            `json:"error,omitempty"`
}

// MarshalJSON writes the record with its calls. It does not escape HTML
// characters: an encoder that is asked to escapes them in what it is given.
func (r Record) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(recordJSON{Seq: r.Seq, At: r.At, Actor: r.Actor, Item: r.Item, Reason: r.Reason, Calls: r.Calls(),
		Enqueued: r.Enqueued(), Changed: r.Changed, Notes: r.Notes, Err: r.Err})
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}
