package engine

import (
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// Action is one thing that can happen to a world: a user request or a step.
// Actions are values: replaying the same actions on a clone of the same
// world gives the same records, which is what History relies on.
type Action interface {
	// String describes the action in one line.
	String() string
	// apply performs the action and returns its finished record, which
	// the world owns and reuses at the next action (Do copies it).
	apply(w *World) (*Record, error)
}

// Create POSTs Object.
type Create struct{ Object *fakeapi.Object }

// Delete DELETEs Ref with Options.
type Delete struct {
	Ref     fakeapi.Ref
	Options *fakeapi.DeleteOptions
}

// Patch applies a JSON merge patch to Ref.
type Patch struct {
	Ref   fakeapi.Ref
	Merge []byte
}

// Step processes one work item: from Queue, or in the default order when
// Queue is empty. Queue may also name a controller ("kubelet").
type Step struct{ Queue string }

// Advance moves the virtual clock forward by D; work that becomes due is
// left for later steps.
type Advance struct{ D time.Duration }

// Restart throws away a controller's in-memory state and starts it again
// from a fresh list.
type Restart struct{ Controller string }

// Inject adds an apiserver fault.
type Inject struct{ Fault fakeapi.Fault }
