package fakeapi

import (
	"strconv"
	"strings"
	"time"
)

// Finalizer names and deletion policies (R1).
const (
	FinalizerOrphanDependents = "orphan"
	FinalizerDeleteDependents = "foregroundDeletion"
)

// DeletionPropagation is a DeleteOptions.propagationPolicy value. The
// apiserver validates it, so any string can be sent.
type DeletionPropagation string

// The three propagation policies.
const (
	DeletePropagationOrphan     DeletionPropagation = "Orphan"
	DeletePropagationBackground DeletionPropagation = "Background"
	DeletePropagationForeground DeletionPropagation = "Foreground"
)

// Preconditions must hold for a DELETE to proceed (R12).
type Preconditions struct {
	UID             *string `json:"uid,omitempty"`
	ResourceVersion *string `json:"resourceVersion,omitempty"`
}

// DeleteOptions mirrors meta/v1 DeleteOptions.
type DeleteOptions struct {
	GracePeriodSeconds *int64               `json:"gracePeriodSeconds,omitempty"`
	Preconditions      *Preconditions       `json:"preconditions,omitempty"`
	OrphanDependents   *bool                `json:"orphanDependents,omitempty"`
	PropagationPolicy  *DeletionPropagation `json:"propagationPolicy,omitempty"`
	DryRun             []string             `json:"dryRun,omitempty"`
}

// PatchType is the content type of a PATCH.
type PatchType string

// The patch types the fake apiserver accepts.
const (
	// MergePatch is a JSON merge patch (RFC 7386).
	MergePatch PatchType = "application/merge-patch+json"
	// StrategicMergePatch is Kubernetes' strategic merge patch, modelled for
	// metadata (ownerReferences merged by uid with $patch: delete,
	// finalizers merged as a set as their patchStrategy says, the other
	// fields as in a merge patch). Custom kinds reject it with 415 (R53).
	StrategicMergePatch PatchType = "application/strategic-merge-patch+json"
)

// Ref names one object for a request.
type Ref struct {
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
}

// String returns the scenario-file form of the reference.
func (r Ref) String() string { return RefString(r.Kind, r.Namespace, r.Name) }

// RefOf returns the reference of an object.
func RefOf(o *Object) Ref {
	return Ref{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: o.Metadata.Namespace, Name: o.Metadata.Name}
}

// EventType is the type of a watch event.
type EventType string

// The watch event types.
const (
	Added    EventType = "ADDED"
	Modified EventType = "MODIFIED"
	Deleted  EventType = "DELETED"
)

// WatchEvent is one change in storage, as every watcher sees it. Object is
// the new state (for Deleted: the last stored state); Old is the state
// before the change (nil for Added). Both are owned by the store and must
// not be modified.
type WatchEvent struct {
	// Seq numbers events from 1 in the order they happened.
	Seq    int
	Type   EventType
	Object *Object
	Old    *Object
	// ResourceVersion is the version the change was written at: Object's
	// own for Added and Modified. A deletion has a version of its own,
	// which an etcd watch writes into the DELETED object's metadata; here
	// the last stored state is passed as it is (a large cascade would
	// otherwise copy every object it removes), and the deletion's version
	// is this field.
	ResourceVersion string
}

// Request is the record of one API request, for the trace.
type Request struct {
	// Verb is get, list, create, update, patch or delete.
	Verb string
	// Client names who sent it ("user", "garbagecollector", ...).
	Client string
	Ref    Ref
	// Detail summarises the request body or options (patch body, delete
	// options), in one line.
	Detail string
	// Code is the HTTP status code of the answer (200, 201, 202, 404, ...).
	Code int
	// Reason is the StatusReason of a failed request, "" on success.
	Reason Reason
	// Message is the error message of a failed request.
	Message string
	// Injected is true when the failure came from fault injection.
	Injected bool
}

// Fault makes the next Times requests of Verb on matching objects fail
// with Reason. An empty Name matches every object of Kind (in Namespace,
// when set).
type Fault struct {
	Verb      string
	Kind      string
	Namespace string
	Name      string
	Reason    Reason
	Times     int
}

// Clock tells the fake apiserver the virtual time.
type Clock interface {
	Now() time.Time
}

// Epoch is the virtual time at which every world starts.
var Epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Event is a recorded Kubernetes Event (v1 Event), flattened.
type Event struct {
	// Object is the involved object's reference in scenario form.
	Object    Ref
	ObjectUID string
	// ObjectRV is the involved object's resourceVersion as the recorder's
	// caller saw it (reference.GetReference copies it), when known.
	ObjectRV string
	Type     string
	Reason   string
	Message  string
	Source   string
	// Reporting is reportingComponent: the recorder's source component,
	// empty on an aggregate Event (EventAggregator's copy leaves it out).
	Reporting string
	Namespace string
	// Time is firstTimestamp; Last is lastTimestamp (Time when zero).
	Time time.Time
	Last time.Time
	// Count is how many times the Event was seen (count, 1 when zero).
	Count int32
	Name  string
}

// Title is the event's type and reason: "Warning OwnerRefInvalidNamespace".
func (ev Event) Title() string { return ev.Type + " " + ev.Reason }

// String is the event with its message, as a list of events shows it:
// Warning OwnerRefInvalidNamespace "ownerRef [...] does not exist ...",
// followed by " (x3)" for an Event seen three times.
func (ev Event) String() string { return ev.Title() + " " + strconv.Quote(ev.Message) + ev.countText() }

// EventList is the text form of a list of events: "none", or the events
// in brackets, separated by semicolons. With titles, only their titles,
// separated by commas (the grader's short summary for a learner).
func EventList(evs []Event, titles bool) string {
	if len(evs) == 0 {
		return "none"
	}
	parts := make([]string, len(evs))
	for i, ev := range evs {
		if titles {
			parts[i] = ev.Title()
		} else {
			parts[i] = ev.String()
		}
	}
	if titles {
		return strings.Join(parts, ", ")
	}
	return "[" + strings.Join(parts, "; ") + "]"
}
