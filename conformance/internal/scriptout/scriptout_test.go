package scriptout

import (
	"reflect"
	"testing"
)

// What a script of gcplay export kubectl prints at an expect step, with
// its kubectl chatter around the expectation lines.
const out = `using context gcplay-conformance
configmap/app created
=== examples/foreground.yaml:38: step 3: gcplay expects, and the cluster has:
  line 39    gcplay:  Secret/app-cache: absent
       same  cluster: Secret/app-cache: absent
  line 40    gcplay:  ConfigMap/app: finalizers [foregroundDeletion]
  DIFFERENT  cluster: ConfigMap/app: absent
  line 41    gcplay:  count Pod in default with app=web: 3
  DIFFERENT  cluster: count Pod in default with app=web: error: the server doesn't have a resource type "pods"
  line 49    gcplay:  deleted in this order: Secret/app-token, ConfigMap/app (not checked here: see kubectl get -w)
  line 52    gcplay:  delete Secret/missing: fails with NotFound
       same  cluster: delete Secret/missing: fails with NotFound
  line 60    gcplay:  Secret/lost: exists
done: 2 of 4 expectations the same on this cluster; compare with gcplay run --trace examples/foreground.yaml
`

func TestParse(t *testing.T) {
	got := Parse(out)
	want := Output{
		Lines: []Line{
			{Line: 39, Subject: "Secret/app-cache", Expected: "absent", Real: "absent", Mark: "same", Checked: true},
			{Line: 40, Subject: "ConfigMap/app", Expected: "finalizers [foregroundDeletion]", Real: "absent", Mark: "DIFFERENT", Checked: true},
			{Line: 41, Subject: "count Pod in default with app=web", Expected: "3", Real: `error: the server doesn't have a resource type "pods"`, Mark: "DIFFERENT", Checked: true},
			{Line: 49, Subject: "deleted in this order", Expected: "Secret/app-token, ConfigMap/app", Why: "see kubectl get -w"},
			{Line: 52, Subject: "delete Secret/missing", Expected: "fails with NotFound", Real: "fails with NotFound", Mark: "same", Checked: true},
		},
		Summary:  "2 of 4 expectations the same on this cluster; compare with gcplay run --trace examples/foreground.yaml",
		Unpaired: []string{"  line 60 gcplay:  Secret/lost: exists"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parse:\n got %+v\nwant %+v", got, want)
	}
}

// A cluster line about another subject than the expectation before it is
// a broken script, not a disagreement.
func TestParseMismatchedPair(t *testing.T) {
	got := Parse("  line 3    gcplay:  Secret/a: absent\n       same  cluster: Secret/b: absent\n")
	if len(got.Lines) != 0 || len(got.Unpaired) != 1 {
		t.Errorf("Parse = %+v, want one unpaired line and no expectation", got)
	}
}

func TestSame(t *testing.T) {
	for _, c := range []struct {
		exp, real string
		same      bool
	}{
		{"absent", "absent", true},
		{"absent", "exists", false},
		{"status.failed = 0", "status.failed = (none)", true},
		{"spec.suspend = false", "spec.suspend = (none)", true},
		{"status.failed = 1", "status.failed = (none)", false},
		{"status.failed = 0", "status.active = (none)", false},
	} {
		if got := Same(c.exp, c.real); got != c.same {
			t.Errorf("Same(%q, %q) = %v, want %v", c.exp, c.real, got, c.same)
		}
	}
}
