package fakeapi

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

// Two stores given the same requests, one through Get and Delete and one
// through GetShared and DeleteShared, record the same requests, send the
// same watch events and answer with objects that read the same; the shared
// answers are the stored snapshots themselves when read through the
// storage version.
func TestShared_SameRequestsAndAnswersWithoutCopies(t *testing.T) {
	reg := NewRegistry()
	for _, v := range []string{"v1", "v2"} {
		if err := reg.Add(KindInfo{APIVersion: "example.com/" + v, Kind: "Widget", Scope: Namespaced, Custom: true}); err != nil {
			t.Fatal(err)
		}
	}
	type trace struct {
		reqs, events []string
	}
	run := func(shared bool) (trace, []string) {
		w := newWorldWith(t, reg.Clone())
		var tr trace
		w.s.OnRequest(func(r Request) { tr.reqs = append(tr.reqs, fmt.Sprintf("%+v", r)) })
		w.s.Watch(func(ev WatchEvent) {
			tr.events = append(tr.events, fmt.Sprintf("%d %s %s", ev.Seq, ev.Type, describe(ev.Object)))
		})
		w.create(obj("example.com/v2", "Widget", "default", "w"))
		w.create(withFinalizers(configMap("held"), "example.com/hold"))
		w.create(scheduledPod("p"))
		get := w.s.Get
		del := w.s.Delete
		if shared {
			get, del = w.s.GetShared, w.s.DeleteShared
		}
		var answers []string
		answer := func(o *Object, err error) {
			answers = append(answers, describe(o)+" "+fmt.Sprint(err))
			if err == nil && shared && o.APIVersion == "v1" && o != w.s.ByUID(o.Metadata.UID) && o.Kind != "Pod" {
				t.Errorf("shared answer for %s is a copy", o)
			}
		}
		answer(get("test", Ref{APIVersion: "example.com/v1", Kind: "Widget", Namespace: "default", Name: "w"}))
		answer(get("test", Ref{APIVersion: "example.com/v2", Kind: "Widget", Namespace: "default", Name: "w"}))
		answer(get("test", cmRef("held")))
		answer(get("test", cmRef("missing")))
		for _, r := range []Ref{cmRef("held"), cmRef("held"), podRef("p"), podRef("p"), cmRef("missing"),
			{APIVersion: "example.com/v2", Kind: "Widget", Namespace: "default", Name: "w"}} {
			res, err := del("test", r, policy(DeletePropagationForeground))
			answer(res.Object, err)
			answers = append(answers, fmt.Sprint(res.Code, res.Removed))
		}
		return tr, answers
	}
	copied, copiedAnswers := run(false)
	shared, sharedAnswers := run(true)
	if !reflect.DeepEqual(copied, shared) {
		t.Errorf("requests or events differ:\ncopies %q\nshared %q", copied, shared)
	}
	if !reflect.DeepEqual(copiedAnswers, sharedAnswers) {
		t.Errorf("answers differ:\ncopies %q\nshared %q", copiedAnswers, sharedAnswers)
	}
}

// sameObject is reflect.DeepEqual on every pair of a set of variants.
func TestSameObject_IsDeepEqual(t *testing.T) {
	t0, t1 := &Time{Epoch}, &Time{Epoch.Add(time.Second)}
	base := func() *Object {
		return &Object{APIVersion: "v1", Kind: "ConfigMap", Metadata: ObjectMeta{
			Name: "x", Namespace: "default", UID: "u", ResourceVersion: "3", CreationTimestamp: t0,
			Labels: map[string]string{"a": "b"}, Finalizers: []string{"f"},
			OwnerReferences: []OwnerReference{{APIVersion: "v1", Kind: "Secret", Name: "s", UID: "o", Controller: Bool(true)}},
		}, Fields: FieldsOf(map[string]any{"data": map[string]any{"k": "v"}})}
	}
	variants := map[string]func(o *Object){
		"same":                  func(o *Object) {},
		"apiVersion":            func(o *Object) { o.APIVersion = "v2" },
		"name":                  func(o *Object) { o.Metadata.Name = "y" },
		"generateName":          func(o *Object) { o.Metadata.GenerateName = "g-" },
		"resourceVersion":       func(o *Object) { o.Metadata.ResourceVersion = "4" },
		"generation":            func(o *Object) { o.Metadata.Generation = 2 },
		"creation equal copy":   func(o *Object) { c := *t0; o.Metadata.CreationTimestamp = &c },
		"creation other":        func(o *Object) { o.Metadata.CreationTimestamp = t1 },
		"creation nil":          func(o *Object) { o.Metadata.CreationTimestamp = nil },
		"deletion set":          func(o *Object) { o.Metadata.DeletionTimestamp = t1 },
		"grace 0":               func(o *Object) { o.Metadata.DeletionGracePeriodSeconds = Int64(0) },
		"grace 30":              func(o *Object) { o.Metadata.DeletionGracePeriodSeconds = Int64(30) },
		"labels nil":            func(o *Object) { o.Metadata.Labels = nil },
		"labels empty":          func(o *Object) { o.Metadata.Labels = map[string]string{} },
		"labels other value":    func(o *Object) { o.Metadata.Labels = map[string]string{"a": "c"} },
		"labels other key":      func(o *Object) { o.Metadata.Labels = map[string]string{"b": "b"} },
		"annotations":           func(o *Object) { o.Metadata.Annotations = map[string]string{"a": "b"} },
		"finalizers nil":        func(o *Object) { o.Metadata.Finalizers = nil },
		"finalizers empty":      func(o *Object) { o.Metadata.Finalizers = []string{} },
		"finalizers other":      func(o *Object) { o.Metadata.Finalizers = []string{"g"} },
		"finalizers more":       func(o *Object) { o.Metadata.Finalizers = []string{"f", "g"} },
		"owners nil":            func(o *Object) { o.Metadata.OwnerReferences = nil },
		"owners not controller": func(o *Object) { o.Metadata.OwnerReferences[0].Controller = Bool(false) },
		"owners no controller":  func(o *Object) { o.Metadata.OwnerReferences[0].Controller = nil },
		"owners blocking":       func(o *Object) { o.Metadata.OwnerReferences[0].BlockOwnerDeletion = Bool(true) },
		"owners uid":            func(o *Object) { o.Metadata.OwnerReferences[0].UID = "p" },
		"fields none":           func(o *Object) { o.Fields = Fields{} },
		"fields emptied":        func(o *Object) { o.Fields.Delete("data") },
		"fields other":          func(o *Object) { o.Fields = FieldsOf(map[string]any{"data": map[string]any{"k": "w"}}) },
	}
	for na, fa := range variants {
		for nb, fb := range variants {
			a, b := base(), base()
			fa(a)
			fb(b)
			want := reflect.DeepEqual(a, b)
			if got := sameObject(a, b); got != want {
				t.Errorf("sameObject(%s, %s) = %v, want %v", na, nb, got, want)
			}
		}
	}
}
