package fakeapi

import "testing"

// A DELETE's Detail is written for the observers that read it, and only
// left out when none will: an observer's record of the request is the
// same either way but for Detail.
func TestDeleteDetailOnlyForAReader(t *testing.T) {
	const want = "propagationPolicy=Background"
	w := newWorld(t)
	for _, n := range []string{"a", "b", "c", "d"} {
		w.create(configMap(n))
	}
	var brief, full []Request
	reading := false
	w.s.OnRequestReading(func(r Request) { brief = append(brief, r) }, func() bool { return reading })
	w.s.OnRequestReading(func(r Request) { brief = append(brief, r) }, nil)

	w.delete(cmRef("a"), policy(DeletePropagationBackground))
	reading = true
	w.delete(cmRef("b"), policy(DeletePropagationBackground))
	reading = false
	cancel := w.s.OnRequest(func(r Request) { full = append(full, r) })
	w.delete(cmRef("c"), policy(DeletePropagationBackground))
	cancel()
	w.delete(cmRef("d"), policy(DeletePropagationBackground))
	if err := w.s.DeleteCollection("test", "v1", "ConfigMap", "default", policy(DeletePropagationBackground)); err != nil {
		t.Fatal(err)
	}

	// Each request reaches both brief observers; the full one saw only c.
	wantDetail := []string{"", "", want, want, want, want, "", "", "", ""}
	if len(brief) != len(wantDetail) {
		t.Fatalf("brief observers saw %d requests, want %d: %+v", len(brief), len(wantDetail), brief)
	}
	for i, r := range brief {
		if r.Detail != wantDetail[i] {
			t.Errorf("request %d (%s %s): Detail = %q, want %q", i, r.Verb, r.Ref.Name, r.Detail, wantDetail[i])
		}
		if r.Verb != "delete" && r.Verb != "deletecollection" || r.Code != 200 {
			t.Errorf("request %d = %+v, want a successful delete", i, r)
		}
	}
	if len(full) != 1 || full[0].Ref.Name != "c" || full[0].Detail != want {
		t.Errorf("OnRequest's observer saw %+v, want the delete of c with Detail %q", full, want)
	}
}
