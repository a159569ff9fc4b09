package fakeapi

// This file fixes the Store's method set; the bodies are being written.

// DeleteResult is the answer to a DELETE.
type DeleteResult struct {
	// Object is the object as the response body carries it: the stored
	// state after the call (with deletionTimestamp and finalizers) or the
	// last state when it was removed.
	Object *Object
	// Code is 200, or 202 Accepted (R20).
	Code int
	// Removed is true when the object left storage during this call.
	Removed bool
}

// Removal records an object leaving storage.
type Removal struct {
	Ref  Ref
	UID  string
	Seq  int // the WatchEvent.Seq of its DELETED event
}

// Store is the in-process apiserver: storage plus request handling.
type Store struct{}

// NewStore returns a store serving reg's kinds, with the four standard
// namespaces already created.
func NewStore(reg *Registry, clock Clock) *Store { panic("unimplemented") }

// Registry returns the kinds the store serves.
func (s *Store) Registry() *Registry { panic("unimplemented") }

// Create POSTs obj on behalf of client.
func (s *Store) Create(client string, obj *Object) (*Object, error) { panic("unimplemented") }

// Get returns a copy of the object at ref.
func (s *Store) Get(client string, ref Ref) (*Object, error) { panic("unimplemented") }

// List returns copies of the objects of a kind, in one namespace or ("") all.
func (s *Store) List(client string, apiVersion, kind, namespace string) ([]*Object, error) {
	panic("unimplemented")
}

// Update PUTs obj.
func (s *Store) Update(client string, obj *Object) (*Object, error) { panic("unimplemented") }

// Patch applies a patch to the object at ref.
func (s *Store) Patch(client string, ref Ref, pt PatchType, body []byte) (*Object, error) {
	panic("unimplemented")
}

// Delete DELETEs the object at ref.
func (s *Store) Delete(client string, ref Ref, opts *DeleteOptions) (DeleteResult, error) {
	panic("unimplemented")
}

// Watch registers fn to be called synchronously with every later change.
func (s *Store) Watch(fn func(WatchEvent)) (cancel func()) { panic("unimplemented") }

// RecordEvent records a Kubernetes Event.
func (s *Store) RecordEvent(client string, ev Event) { panic("unimplemented") }

// Events returns the recorded Events in order.
func (s *Store) Events() []Event { panic("unimplemented") }

// Inject adds a fault.
func (s *Store) Inject(f Fault) { panic("unimplemented") }

// OnRequest registers fn to be called with every request's record.
func (s *Store) OnRequest(fn func(Request)) (cancel func()) { panic("unimplemented") }

// Objects returns every stored object (not copies), sorted.
func (s *Store) Objects() []*Object { panic("unimplemented") }

// ByUID returns the stored object with uid (not a copy), or nil.
func (s *Store) ByUID(uid string) *Object { panic("unimplemented") }

// Lookup returns the stored object at ref (not a copy), or nil.
func (s *Store) Lookup(ref Ref) *Object { panic("unimplemented") }

// Removals returns every removal from storage, in order.
func (s *Store) Removals() []Removal { panic("unimplemented") }

// Clone returns an independent copy with no watchers or observers.
func (s *Store) Clone(clock Clock) *Store { panic("unimplemented") }
