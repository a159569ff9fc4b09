package engine

import (
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// This file fixes World's method set; the bodies are being written.

// World is one simulated cluster: the fake apiserver plus the controllers
// that run against it, under one scheduler on a virtual clock.
type World struct{}

// NewWorld returns a world with the configured kinds and controllers.
func NewWorld(cfg Config) (*World, error) { panic("unimplemented") }

// Store returns the world's apiserver (for reads and introspection).
func (w *World) Store() *fakeapi.Store { panic("unimplemented") }

// Elapsed returns the virtual time since the world started.
func (w *World) Elapsed() time.Duration { panic("unimplemented") }

// Controllers returns the names of the running controllers.
func (w *World) Controllers() []string { panic("unimplemented") }

// Do applies one action (a user request or a step) and returns its record.
func (w *World) Do(a Action) (Record, error) { panic("unimplemented") }

// Idle reports whether no work is ready now (timers may still be pending).
func (w *World) Idle() bool { panic("unimplemented") }

// NextDue returns the virtual time at which the next delayed work becomes
// ready, and false when nothing is pending at all.
func (w *World) NextDue() (time.Duration, bool) { panic("unimplemented") }

// Describe says in one line what the next default step will do.
func (w *World) Describe() string { panic("unimplemented") }

// Node returns the collector's uidToNode entry for uid.
func (w *World) Node(uid string) (NodeView, bool) { panic("unimplemented") }

// Nodes returns every uidToNode entry, sorted by UID.
func (w *World) Nodes() []NodeView { panic("unimplemented") }

// Queue returns a queue's contents, front first, then waiting items by due time.
func (w *World) Queue(name string) []QueueItem { panic("unimplemented") }

// AbsentOwners returns the absentOwnerCache entries, most recent first.
func (w *World) AbsentOwners() []string { panic("unimplemented") }

// Clone returns an independent copy of the world.
func (w *World) Clone() *World { panic("unimplemented") }

// Action is one thing that can happen to a world: a user request or a step.
type Action interface {
	// String describes the action in one line (the scenario-step form).
	String() string
	apply(w *World) (Record, error)
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
// Queue is empty. Queue may also name a controller ("replicaset").
type Step struct{ Queue string }

// Advance moves the virtual clock forward by D; work that becomes due is
// left for later steps.
type Advance struct{ D time.Duration }

// Restart throws away a controller's in-memory state and starts it again
// from a fresh list.
type Restart struct{ Controller string }

// Inject adds an apiserver fault.
type Inject struct{ Fault fakeapi.Fault }

// SettleResult summarises a Settle run.
type SettleResult struct {
	Steps int
	// Backoff is true when settle stopped because the only work left is
	// retries at the maximum backoff.
	Backoff bool
	Records []Record
}

// Settle runs steps (advancing the clock over delays) until nothing is
// pending, or only max-backoff retries remain; more than maxSteps steps is
// an error.
func Settle(w *World, maxSteps int) (SettleResult, error) { panic("unimplemented") }
