package fakeapi

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"
)

// The Events an event recorder writes. The recorder itself (client-go's
// tools/record, with its EventCorrelator) is client-side and lives with
// the controllers (engine/events.go); these are the two requests its sink
// makes (EventSink.Create and EventSink.Patch of record/event.go), and the
// log of what they wrote.

// RecordEvent creates a v1 Event on behalf of client, as the recorder's
// sink does (EventSink.Create): in the involved object's namespace, or in
// "default" for a cluster-scoped involved object (R60), named ev.Name
// (when empty, NewEventName's), with involvedObject, reason, message,
// type, source.component, firstTimestamp, lastTimestamp (ev.Last, or
// ev.Time when zero), count (ev.Count, at least 1), reportingComponent
// (ev.Reporting), reportingInstance (always empty: the controllers'
// EventSource has no host) and eventTime null (makeEvent sets none). The create is an ordinary
// request (recorded, and an ADDED watch event); it fails as a create does
// when the namespace is missing or terminating, or the name is taken.
// ev.Namespace and (when zero) ev.Time are filled in; the stored Event is
// returned in the flattened form.
func (s *Store) RecordEvent(client string, ev Event) (Event, error) {
	ev.Namespace = ev.Object.Namespace
	if ev.Namespace == "" {
		ev.Namespace = "default"
	}
	if ev.Time.IsZero() {
		ev.Time = s.now()
	}
	ev.Time = ev.Time.UTC().Truncate(time.Second)
	if ev.Last.IsZero() {
		ev.Last = ev.Time
	}
	ev.Last = ev.Last.UTC().Truncate(time.Second)
	if ev.Count < 1 {
		ev.Count = 1
	}
	if ev.Name == "" {
		ev.Name = s.NewEventName(ev.Object.Name)
	}
	req := Request{
		Verb:   "create",
		Client: client,
		Ref:    Ref{APIVersion: "v1", Kind: "Event", Namespace: ev.Namespace, Name: ev.Name},
		Detail: "event " + ev.Title() + " about " + ev.Object.String() + ev.countText(),
		Code:   201,
	}
	se := s.recordEvent(ev)
	s.finish(&req, se)
	if se != nil {
		return ev, se
	}
	return ev, nil
}

func (s *Store) recordEvent(ev Event) *StatusError {
	info, se := s.resolve("v1", "Event")
	if se != nil {
		return se
	}
	if se := s.admitCreate(info, ev.Namespace, ev.Name); se != nil {
		return se
	}
	key := keyOf(info, ev.Namespace, ev.Name)
	if s.object(key) != nil {
		return NewError(ReasonAlreadyExists, "%s %q already exists", qualifiedResource(info), ev.Name)
	}
	involved := map[string]any{
		"apiVersion": ev.Object.APIVersion,
		"kind":       ev.Object.Kind,
		"namespace":  ev.Object.Namespace,
		"name":       ev.Object.Name,
		"uid":        ev.ObjectUID,
	}
	if ev.ObjectRV != "" {
		involved["resourceVersion"] = ev.ObjectRV
	}
	obj := &Object{
		APIVersion: s.storageVersion(info),
		Kind:       "Event",
		Metadata: ObjectMeta{
			Name:              ev.Name,
			Namespace:         ev.Namespace,
			UID:               s.newUID(),
			CreationTimestamp: &Time{s.now()},
		},
		Fields: FieldsOf(map[string]any{
			"involvedObject":     involved,
			"reason":             ev.Reason,
			"message":            ev.Message,
			"type":               ev.Type,
			"source":             map[string]any{"component": ev.Source},
			"firstTimestamp":     ev.Time.Format(time.RFC3339),
			"lastTimestamp":      ev.Last.Format(time.RFC3339),
			"count":              float64(ev.Count),
			"reportingComponent": ev.Reporting,
			"reportingInstance":  "",
			// A core/v1 Event from the recorder has no eventTime; the
			// zero MicroTime is written as null.
			"eventTime": nil,
		}),
	}
	obj.Metadata.ResourceVersion = s.nextRV()
	s.insert(key, obj)
	s.events = append(s.events, ev)
	return nil
}

// eventPatch is the body of the recorder's PATCH of a repeated Event: the
// fields eventLogger.eventObserve blanks in the "old" side of its
// two-way strategic merge patch, so the patch sets exactly them.
type eventPatch struct {
	Count         int32  `json:"count"`
	LastTimestamp string `json:"lastTimestamp"`
	Message       string `json:"message"`
}

// PatchEvent is the recorder sink's Patch of the Event named ev.Name in
// ev.Object's namespace (or "default"): a strategic merge patch of count,
// lastTimestamp (ev.Last) and message, as record/event.go's recordEvent
// sends for an Event whose count is above 1. It is an ordinary PATCH
// request (recorded, a MODIFIED watch event); it fails NotFound when the
// Event is gone, which the recorder answers with a create.
func (s *Store) PatchEvent(client string, ev Event) (Event, error) {
	ev.Namespace = ev.Object.Namespace
	if ev.Namespace == "" {
		ev.Namespace = "default"
	}
	ev.Last = ev.Last.UTC().Truncate(time.Second)
	body, _ := json.Marshal(eventPatch{Count: ev.Count, LastTimestamp: ev.Last.Format(time.RFC3339), Message: ev.Message})
	ref := Ref{APIVersion: "v1", Kind: "Event", Namespace: ev.Namespace, Name: ev.Name}
	req := Request{Verb: "patch", Client: client, Ref: ref, Code: 200,
		Detail: "event " + ev.Title() + " about " + ev.Object.String() + ev.countText()}
	out, se := s.patch(&req, ref, StrategicMergePatch, body)
	if se == nil {
		// The stored Event keeps its own firstTimestamp.
		if t, err := time.Parse(time.RFC3339, stringField(out, "firstTimestamp")); err == nil {
			ev.Time = t
		}
		s.events = append(s.events, ev)
	}
	s.finish(&req, se)
	if se != nil {
		return ev, se
	}
	return ev, nil
}

func stringField(o *Object, name string) string {
	v, _ := o.Fields.Get(name).(string)
	return v
}

// NewEventName returns the name the recorder gives a new Event about the
// object named involved (see eventName; the counter is kept here so that a
// clone carries it).
func (s *Store) NewEventName(involved string) string { return s.eventName(involved) }

// Events returns the recorded Events, one for each Event written, in the
// order of their first write (including those whose Event object has
// since been deleted), each in its last written state: a repeated Event
// the recorder patched shows its count, last timestamp and message.
func (s *Store) Events() []Event {
	out := make([]Event, 0, len(s.events))
	var at map[string]int
	for _, ev := range s.events {
		if ev.Count > 1 {
			k := ev.Namespace + "/" + ev.Name
			if at == nil {
				at = map[string]int{}
				for i, e := range out {
					at[e.Namespace+"/"+e.Name] = i
				}
			}
			if i, ok := at[k]; ok {
				out[i] = ev
				continue
			}
		}
		if at != nil {
			at[ev.Namespace+"/"+ev.Name] = len(out)
		}
		out = append(out, ev)
	}
	return slices.Clip(out)
}

// countText is how a list of events shows an Event seen more than once:
// " (x3)", as kubectl describe's "(x3 over 5m)" counts it.
func (ev Event) countText() string {
	if ev.Count <= 1 {
		return ""
	}
	return " (x" + strconv.Itoa(int(ev.Count)) + ")"
}
