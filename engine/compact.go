package engine

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// call is an API request as a step's record keeps it; Record.Calls gives
// it back as a fakeapi.Request. A cascade records two requests for every
// object it collects, so what repeats from one request to the next (verb,
// client, apiVersion, kind, namespace and status code) is one shared
// callKind, and the details of the rare failure are kept apart: 48 bytes
// instead of a fakeapi.Request's 160 (docs/BENCHMARKS.md has the figures).
type call struct {
	kind   *callKind
	name   string
	detail string
	fail   *callFailure
}

// callKind is what many requests share. It is never modified once made.
type callKind struct {
	verb, client, apiVersion, kind, namespace string
	code                                      int
}

// callFailure is the answer of a request that failed.
type callFailure struct {
	reason   fakeapi.Reason
	message  string
	injected bool
}

func (c *call) request() fakeapi.Request {
	k := c.kind
	r := fakeapi.Request{
		Verb:   k.verb,
		Client: k.client,
		Ref:    fakeapi.Ref{APIVersion: k.apiVersion, Kind: k.kind, Namespace: k.namespace, Name: c.name},
		Detail: c.detail,
		Code:   k.code,
	}
	if f := c.fail; f != nil {
		r.Reason, r.Message, r.Injected = f.reason, f.message, f.injected
	}
	return r
}

// callKinds hands out one callKind for each distinct set of shared
// values. Requests come in runs of a few kinds (the collector's GET and
// DELETE of Pods), so the few used last are tried before the map.
type callKinds struct {
	recent [4]*callKind
	all    map[callKind]*callKind
}

func (t *callKinds) get(r *fakeapi.Request) *callKind {
	for _, k := range t.recent {
		if k != nil && k.code == r.Code && k.verb == r.Verb && k.client == r.Client && k.namespace == r.Ref.Namespace &&
			k.kind == r.Ref.Kind && k.apiVersion == r.Ref.APIVersion {
			return k
		}
	}
	want := callKind{verb: r.Verb, client: r.Client, apiVersion: r.Ref.APIVersion, kind: r.Ref.Kind, namespace: r.Ref.Namespace, code: r.Code}
	k := t.all[want]
	if k == nil {
		if t.all == nil {
			t.all = make(map[callKind]*callKind)
		}
		k = &want
		t.all[want] = k
	}
	copy(t.recent[1:], t.recent[:len(t.recent)-1])
	t.recent[0] = k
	return k
}

// compact is r as a record keeps it.
func (t *callKinds) compact(r *fakeapi.Request) call {
	c := call{kind: t.get(r), name: r.Ref.Name, detail: r.Detail}
	if r.Reason != "" || r.Message != "" || r.Injected {
		c.fail = &callFailure{reason: r.Reason, message: r.Message, injected: r.Injected}
	}
	return c
}

// enqueue is an Enqueue as a record keeps it (see Record.Enqueued): the
// queue is an index in queueNames rather than a string, for 32 bytes
// instead of 40. A cascade records three for every object.
type enqueue struct {
	item  string
	after time.Duration
	queue uint8 // index in queueNames
}

func packEnqueue(queue, item string, after time.Duration) enqueue {
	for i, q := range queueNames {
		if q == queue {
			return enqueue{item: item, after: after, queue: uint8(i)}
		}
	}
	panic("engine: no queue " + queue)
}

func (e enqueue) unpack() Enqueue {
	return Enqueue{Queue: queueNames[e.queue], Item: e.item, After: e.after}
}

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
