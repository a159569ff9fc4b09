package main

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/tools/cache"

	"github.com/gcplay/gcplay/fakeapi"
)

// kindRes is one kind the cluster serves, with the resource it maps to.
type kindRes struct {
	info fakeapi.KindInfo
	gvr  schema.GroupVersionResource
}

// removal is one object removed from storage, seen as a watch DELETED
// event; rv is the resourceVersion the event carries, which for etcd is
// the revision of the removal, so it orders removals across resources.
type removal struct {
	kind, namespace, name, uid string
	rv                         int64
}

// sighting is an object as first seen: where it is, the revision it was
// created at, and its controller owner then ("" when it has none).
type sighting struct {
	kind, namespace, name, uid string
	rv                         int64
	owner                      string // RefString of the controller owner
}

// objKey locates an object the recorder has seen.
type objKey struct {
	kind      string
	gvr       schema.GroupVersionResource
	namespace string
	name      string
}

// recorder watches every kind of the scenario (and the kinds the
// controllers create) from before the first object is created, and keeps
// the removals, in order, and an index of every UID seen.
type recorder struct {
	mu       sync.Mutex
	removals []removal
	byUID    map[string]objKey
	// sightings are the objects seen, each once, when first seen: with
	// the watch started before the first create, in creation order.
	sightings []sighting
	cancel    context.CancelFunc
	factory   metadatainformer.SharedInformerFactory
}

func (c *Cluster) startRecorder(kinds []kindRes) (*recorder, error) {
	ctx, cancel := context.WithCancel(context.Background())
	rec := &recorder{byUID: map[string]objKey{}, cancel: cancel}
	rec.factory = metadatainformer.NewSharedInformerFactory(c.meta, 0)
	for _, k := range kinds {
		k := k
		inf := rec.factory.ForResource(k.gvr).Informer()
		seen := func(obj any) {
			m, ok := obj.(*metav1.PartialObjectMetadata)
			if !ok {
				return
			}
			rec.mu.Lock()
			if _, ok := rec.byUID[string(m.UID)]; !ok {
				rv, _ := strconv.ParseInt(m.ResourceVersion, 10, 64)
				sg := sighting{kind: k.info.Kind, namespace: m.Namespace, name: m.Name, uid: string(m.UID), rv: rv}
				for _, or := range m.OwnerReferences {
					if or.Controller != nil && *or.Controller {
						sg.owner = fakeapi.RefString(or.Kind, m.Namespace, or.Name)
					}
				}
				rec.sightings = append(rec.sightings, sg)
			}
			rec.byUID[string(m.UID)] = objKey{kind: k.info.Kind, gvr: k.gvr, namespace: m.Namespace, name: m.Name}
			rec.mu.Unlock()
		}
		_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    seen,
			UpdateFunc: func(_, obj any) { seen(obj) },
			DeleteFunc: func(obj any) {
				if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
					obj = d.Obj
				}
				m, ok := obj.(*metav1.PartialObjectMetadata)
				if !ok {
					return
				}
				rv, _ := strconv.ParseInt(m.ResourceVersion, 10, 64)
				rec.mu.Lock()
				rec.removals = append(rec.removals, removal{kind: k.info.Kind, namespace: m.Namespace, name: m.Name, uid: string(m.UID), rv: rv})
				rec.mu.Unlock()
			},
		})
		if err != nil {
			cancel()
			return nil, err
		}
	}
	rec.factory.Start(ctx.Done())
	syncCtx, done := context.WithTimeout(ctx, time.Minute)
	defer done()
	for gvr, ok := range rec.factory.WaitForCacheSync(syncCtx.Done()) {
		if !ok {
			rec.stop()
			return nil, fmt.Errorf("watching %s: the cache did not sync", gvr)
		}
	}
	return rec, nil
}

func (rec *recorder) stop() {
	rec.cancel()
	rec.factory.Shutdown()
}

// Removals returns the removals so far, in the order of their revisions.
func (rec *recorder) Removals() []removal {
	rec.mu.Lock()
	out := append([]removal(nil), rec.removals...)
	rec.mu.Unlock()
	sort.SliceStable(out, func(i, j int) bool { return out[i].rv < out[j].rv })
	return out
}

// Sightings returns the objects seen, in the order they were created.
func (rec *recorder) Sightings() []sighting {
	rec.mu.Lock()
	out := append([]sighting(nil), rec.sightings...)
	rec.mu.Unlock()
	sort.SliceStable(out, func(i, j int) bool { return out[i].rv < out[j].rv })
	return out
}

// Lookup returns where the object with this UID was seen.
func (rec *recorder) Lookup(uid string) (objKey, bool) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	k, ok := rec.byUID[uid]
	return k, ok
}
