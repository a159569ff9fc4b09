package scenario

import (
	"os"
	"slices"
	"testing"
)

// TestWhatIfScenario: the questions in a dump's comments become scenarios
// whose expect step is gcplay's what-if answer, and gcplay's own run of
// each passes (the conformance runner plays them on a real cluster).
func TestWhatIfScenario(t *testing.T) {
	data, err := os.ReadFile("../examples/dumps/web.yaml")
	if err != nil {
		t.Fatal(err)
	}
	qs := WhatIfQuestions(data)
	want := []WhatIfQuestion{{Target: "deployment/web", Cascade: "background"}, {Target: "deployment/web", Cascade: "orphan"}, {Target: "pod/web-5d8c7f00-00000", Cascade: "background"}}
	if !slices.EqualFunc(qs, want, func(a, b WhatIfQuestion) bool {
		return a.Target == b.Target && a.Cascade == b.Cascade && a.Namespace == b.Namespace
	}) {
		t.Fatalf("questions %+v, want %+v", qs, want)
	}
	for _, q := range qs {
		s, err := WhatIfScenario("web.yaml", data, q)
		if err != nil {
			t.Fatal(err)
		}
		x := s.Steps[len(s.Steps)-1].Expect
		switch q.Cascade {
		case "orphan":
			if len(x.Absent) != 1 || len(x.Exists) != 4 {
				t.Errorf("orphan: %d absent, %d exist; want the Deployment gone and the other 4", len(x.Absent), len(x.Exists))
			}
		default:
			if len(x.Absent) == 0 {
				t.Errorf("%s: nothing expected absent", q.Target)
			}
		}
		if res := Run(s, RunOptions{}); !res.Passed {
			t.Errorf("%s: gcplay's own run of its answer fails: %v", s.File, res.Err())
		}
	}
}
