package fakeapi

import (
	"slices"
	"time"
)

// RecordEvent records a Kubernetes Event on behalf of client, as
// client-go's event recorder does: it creates a v1 Event object in the
// involved object's namespace, or in "default" for a cluster-scoped
// involved object (R60), named after the object with a dot and 16 hex
// digits from a counter, with involvedObject, reason, message, type,
// source.component, firstTimestamp, lastTimestamp and count 1. The create
// is an ordinary request (recorded, and an ADDED watch event). Like the
// recorder, it drops the Event silently when the namespace is missing or
// terminating. ev.Namespace, ev.Name and (when zero) ev.Time are filled in.
func (s *Store) RecordEvent(client string, ev Event) {
	ev.Namespace = ev.Object.Namespace
	if ev.Namespace == "" {
		ev.Namespace = "default"
	}
	if ev.Time.IsZero() {
		ev.Time = s.now()
	}
	ev.Time = ev.Time.UTC().Truncate(time.Second)
	ev.Name = s.eventName(ev.Object.Name)
	req := Request{
		Verb:   "create",
		Client: client,
		Ref:    Ref{APIVersion: "v1", Kind: "Event", Namespace: ev.Namespace, Name: ev.Name},
		Detail: "event " + ev.Title() + " about " + ev.Object.String(),
		Code:   201,
	}
	se := s.recordEvent(ev)
	s.finish(&req, se)
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
	stamp := ev.Time.Format(time.RFC3339)
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
			"involvedObject": map[string]any{
				"apiVersion": ev.Object.APIVersion,
				"kind":       ev.Object.Kind,
				"namespace":  ev.Object.Namespace,
				"name":       ev.Object.Name,
				"uid":        ev.ObjectUID,
			},
			"reason":         ev.Reason,
			"message":        ev.Message,
			"type":           ev.Type,
			"source":         map[string]any{"component": ev.Source},
			"firstTimestamp": stamp,
			"lastTimestamp":  stamp,
			"count":          float64(1),
		}),
	}
	obj.Metadata.ResourceVersion = s.nextRV()
	s.insert(key, obj)
	s.events = append(s.events, ev)
	return nil
}

// Events returns the recorded Events in order (including those whose Event
// object has since been deleted).
func (s *Store) Events() []Event { return slices.Clone(s.events) }
