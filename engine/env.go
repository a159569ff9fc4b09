package engine

import (
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// virtualClock is the world's clock: time elapsed since the world's
// start, epoch (a restored dump's present, see dumpPresent; the zero
// time stands for fakeapi.Epoch).
type virtualClock struct {
	epoch time.Time
	now   time.Duration
}

// start is the time at +0s.
func (c *virtualClock) start() time.Time {
	if c.epoch.IsZero() {
		return fakeapi.Epoch
	}
	return c.epoch
}

// Now returns the virtual wall-clock time.
func (c *virtualClock) Now() time.Time { return c.start().Add(c.now) }

// apiserver is all of the apiserver a controller may touch: requests, each
// recorded in the step's record (with the client that made it), and
// discovery. What a controller knows besides is what its informers were
// shown by watch events; nothing reads storage behind the record. The
// methods that return the store's own objects rather than copies
// (GetShared, ListShared, DeleteShared) are for callers that only read
// the answer.
//
// It is a concrete type, not an interface, so that the compiler sees that
// a request's arguments are not kept: a DELETE's options, built per call
// as upstream builds them, stay on the caller's stack.
type apiserver struct{ store *fakeapi.Store }

func (a apiserver) Registry() *fakeapi.Registry { return a.store.Registry() }
func (a apiserver) Get(client string, ref fakeapi.Ref) (*fakeapi.Object, error) {
	return a.store.Get(client, ref)
}
func (a apiserver) GetShared(client string, ref fakeapi.Ref) (*fakeapi.Object, error) {
	return a.store.GetShared(client, ref)
}
func (a apiserver) List(client, apiVersion, kind, namespace string) ([]*fakeapi.Object, error) {
	return a.store.List(client, apiVersion, kind, namespace)
}
func (a apiserver) ListShared(client, apiVersion, kind, namespace string) ([]*fakeapi.Object, error) {
	return a.store.ListShared(client, apiVersion, kind, namespace)
}
func (a apiserver) Create(client string, obj *fakeapi.Object) (*fakeapi.Object, error) {
	return a.store.Create(client, obj)
}
func (a apiserver) Update(client string, obj *fakeapi.Object) (*fakeapi.Object, error) {
	return a.store.Update(client, obj)
}
func (a apiserver) UpdateShared(client string, obj *fakeapi.Object) (*fakeapi.Object, error) {
	return a.store.UpdateShared(client, obj)
}
func (a apiserver) Patch(client string, ref fakeapi.Ref, pt fakeapi.PatchType, body []byte) (*fakeapi.Object, error) {
	return a.store.Patch(client, ref, pt, body)
}
func (a apiserver) Delete(client string, ref fakeapi.Ref, opts *fakeapi.DeleteOptions) (fakeapi.DeleteResult, error) {
	return a.store.Delete(client, ref, opts)
}
func (a apiserver) DeleteShared(client string, ref fakeapi.Ref, opts *fakeapi.DeleteOptions) (fakeapi.DeleteResult, error) {
	return a.store.DeleteShared(client, ref, opts)
}
func (a apiserver) UpdateStatus(client string, obj *fakeapi.Object) (*fakeapi.Object, error) {
	return a.store.UpdateStatus(client, obj)
}
func (a apiserver) Finalize(client string, obj *fakeapi.Object) (*fakeapi.Object, error) {
	return a.store.Finalize(client, obj)
}
func (a apiserver) DeleteCollection(client, apiVersion, kind, namespace string, opts *fakeapi.DeleteOptions) error {
	return a.store.DeleteCollection(client, apiVersion, kind, namespace, opts)
}

// env is what the controllers share while a step runs: the apiserver, the
// clock, and the recorder of the record being written (env.rec).
type env struct {
	api   apiserver
	clock *virtualClock
	recorder
	// pods is the Pod informer's cache the workload controllers share, as
	// kube-controller-manager's shared informer factory gives every
	// controller the same Pod cache: the world updates it once per Pod
	// event, before any controller's handler runs (dispatch), and the first
	// controller to list Pods fills it (relist). nil while no running
	// controller asks for it (podInformer).
	pods *podIndex
	// podsListed says that a list of Pods has filled pods.
	podsListed bool
	// keyed and key are the Pod the last event named and its
	// "namespace/name" key: the Pod cache's own string, made once when the
	// Pod first came (podInfo.key), which the kubelet then queues too.
	// The Pod cache handles a Pod's event before the kubelet does.
	keyed *fakeapi.Object
	key   string
	// correlators are the event recorders' correlators, one for each
	// source component (each controller's own EventBroadcaster), made on
	// the first Event (see recordEvent).
	correlators map[string]*eventCorrelator
	// vtimeAt and vtimeText are the last time vtime formatted, and its
	// text: the kubelet writes one per Pod at the end of a large delete.
	vtimeAt   time.Time
	vtimeText string
}

// podKeyOf returns o's "namespace/name" key, the string the Pod cache and
// the kubelet key a Pod by: the cache's, for the Pod of the event being
// handled, else built.
func (e *env) podKeyOf(o *fakeapi.Object) string {
	if o != e.keyed {
		// Stored objects are never modified, and keyed keeps o alive:
		// the pointer cannot name another object later.
		e.keyed, e.key = o, podKey(o)
	}
	return e.key
}

// podInformer returns the shared Pod cache, starting it on first use.
func (e *env) podInformer() *podIndex {
	if e.pods == nil {
		e.pods = newPodIndex()
	}
	return e.pods
}

// observePod keeps the shared Pod cache up to date with one watch event.
func (e *env) observePod(ev fakeapi.WatchEvent) {
	if e.pods == nil || !isKind(ev.Object, "v1", "Pod") {
		return
	}
	var key string
	if ev.Type == fakeapi.Deleted {
		key = e.pods.remove(ev.Object)
	} else {
		key = e.pods.put(ev.Object).key
	}
	if key != "" {
		e.keyed, e.key = ev.Object, key
	}
}

func newEnv(store *fakeapi.Store, clock *virtualClock) *env {
	e := &env{api: apiserver{store}, clock: clock}
	e.recorder.init()
	return e
}

func (e *env) now() time.Duration { return e.clock.now }

// begin starts a new record; end finishes it.
func (e *env) begin(actor string) *Record { return e.recorder.begin(actor, e.clock.now) }
