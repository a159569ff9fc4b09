package scenario

import (
	"fmt"
	"maps"
	"runtime"
	"testing"

	"github.com/gcplay/gcplay/fakeapi"
)

// TestIdentitiesApartAreIdentities: the indexes by name and by UID built
// apart (identitiesApart) are the ones identities builds, for a dump
// without a fault; and any fault identities would report (an object
// without a name, a name or a UID twice, a kind the registry does not
// know twice) sends the dump to identities.
func TestIdentitiesApartAreIdentities(t *testing.T) {
	// identitiesApart works apart only with two Ps; they need not be two
	// cores, so the test runs on any machine.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	defer func(n int) { identitiesApartMin = n }(identitiesApartMin)
	identitiesApartMin = 8
	reg := fakeapi.NewRegistry()
	dump := func() []Manifest {
		var objs []Manifest
		add := func(apiVersion, kind, ns, name, uid string) {
			o := &fakeapi.Object{APIVersion: apiVersion, Kind: kind}
			o.Metadata.Namespace, o.Metadata.Name, o.Metadata.UID = ns, name, uid
			objs = append(objs, Manifest{Object: o, Line: 1 + len(objs), Path: fmt.Sprintf("items[%d]", len(objs))})
		}
		add("v1", "Namespace", "", "team", "uid-ns")
		for i := range 20 {
			add("v1", "Pod", "default", fmt.Sprintf("p%d", i), fmt.Sprintf("uid-p%d", i))
			add("v1", "Pod", "team", fmt.Sprintf("p%d", i), fmt.Sprintf("uid-t%d", i))
			add("v1", "ConfigMap", "default", fmt.Sprintf("p%d", i), "") // a name of another kind, no uid
		}
		add("example.com/v1", "Widget", "default", "w", "uid-w")
		return objs
	}

	objs := dump()
	byName, byUID, unique := identitiesApart(objs, reg)
	if !unique {
		t.Fatal("a dump without a fault was not indexed apart")
	}
	p := &parser{}
	wantName, wantUID := p.identities(objs, reg)
	if len(p.errs) > 0 {
		t.Fatalf("identities reported %v", p.errs)
	}
	if !maps.Equal(byName, wantName) || !maps.Equal(byUID, wantUID) {
		t.Errorf("the indexes built apart differ from identities': %d/%d names, %d/%d uids", len(byName), len(wantName), len(byUID), len(wantUID))
	}

	faults := map[string]func(objs []Manifest){
		"no name":       func(objs []Manifest) { objs[7].Object.Metadata.Name = "" },
		"a name twice":  func(objs []Manifest) { objs[9].Object.Metadata.Name = objs[3].Object.Metadata.Name },
		"a uid twice":   func(objs []Manifest) { objs[20].Object.Metadata.UID = objs[1].Object.Metadata.UID },
		"the first uid": func(objs []Manifest) { objs[len(objs)-1].Object.Metadata.UID = objs[0].Object.Metadata.UID },
		"unknown kinds": func(objs []Manifest) { // (two kinds the registry does not know: one key)
			o := objs[5].Object
			o.APIVersion, o.Kind, o.Metadata.Namespace, o.Metadata.Name = "example.com/v1", "Gadget", "default", "w"
		},
		"the last named": func(objs []Manifest) { objs[len(objs)-1].Object.Metadata.Name = "" },
	}
	for name, fault := range faults {
		objs := dump()
		fault(objs)
		if _, _, unique := identitiesApart(objs, reg); unique {
			t.Errorf("%s: indexed apart", name)
		}
		p := &parser{}
		p.identities(objs, reg)
		if len(p.errs) == 0 {
			t.Errorf("%s: identities reported nothing (the case tests nothing)", name)
		}
	}

	identitiesApartMin = len(objs) + 1
	if _, _, unique := identitiesApart(dump(), reg); unique {
		t.Errorf("a dump smaller than identitiesApartMin was indexed apart")
	}
}
