package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/dumpgen"
)

// sameDumpRead reports how the reading of data with the direct decoding
// of List entries differs from the reading without it (every entry
// through its tree and the checks), in the scenario, the errors, or
// the notes; "" when it does not. The direct decoding is read twice, in
// order and with its entries decoded in parallel (each entry a chunk of
// its own), which must agree on the entries it took as on all else. It
// also returns how many entries the direct decoding took.
func sameDumpRead(data []byte) (string, int) {
	diff, st := sameDumpReadStats(data)
	return diff, st.direct
}

// sameDumpReadStats is sameDumpRead, with how many entries the workers
// decoded in parallel.
func sameDumpReadStats(data []byte) (string, readStats) {
	want, _, wantErr := parseDump("dump.yaml", data, false, -1)
	// The fast readers' reading, through the trees, is yaml.v3's
	// reading of the whole text: the same objects, notes and errors.
	// (Save for JSON values one after the other, two kubectl get -o json
	// outputs, which the fast reader takes as documents and yaml.v3
	// refuses.)
	d := newDumpReader("dump.yaml", data)
	d.slow(data)
	whole, wholeErr := d.finish("dump.yaml")
	if diff := dumpReadDiff(want, whole, wantErr, wholeErr); diff != "" && jsonValues(data) < 2 {
		return "through the trees, against yaml.v3's reading of the whole text: " + diff, readStats{}
	}
	got, st, gotErr := parseDump("dump.yaml", data, true, -1)
	if diff := dumpReadDiff(got, want, gotErr, wantErr); diff != "" {
		return diff, st
	}
	par, pst, parErr := parseDump("dump.yaml", data, true, 1)
	if diff := dumpReadDiff(par, got, parErr, gotErr); diff != "" || pst.direct != st.direct {
		return fmt.Sprintf("in parallel, %d entries decoded directly, in order %d: %s", pst.direct, st.direct, diff), pst
	}
	return "", pst
}

// plainObject is o with its fields as the maps they read as: the direct
// decoding packs an object's maps (fakeapi.PackMap), the trees do not.
func plainObject(o *fakeapi.Object) *fakeapi.Object {
	c := *o
	c.Fields = fakeapi.FieldsOf(o.Fields.Map())
	return &c
}

// fieldValue is the address of what an object holds as its field name,
// packed or not (Get gives a packed map as a new map each time).
func fieldValue(o *fakeapi.Object, name string) uintptr {
	list := reflect.ValueOf(o.Fields).FieldByName("list")
	for i := range list.Len() {
		if e := list.Index(i); e.Field(0).String() == name {
			return e.Field(1).Elem().Pointer()
		}
	}
	return 0
}

// jsonValues counts the JSON values at the start of data, one after the
// other.
func jsonValues(data []byte) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	n := 0
	for ; ; n++ {
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return n
		}
	}
}

// dumpReadDiff says how the reading got differs from want; "" when it
// does not.
func dumpReadDiff(got, want *Scenario, gotErr, wantErr error) string {
	switch {
	case (wantErr == nil) != (gotErr == nil):
		return fmt.Sprintf("errors: direct %v, tree %v", gotErr, wantErr)
	case wantErr != nil:
		if gotErr.Error() != wantErr.Error() {
			return fmt.Sprintf("errors differ:\ndirect %v\ntree   %v", gotErr, wantErr)
		}
		return ""
	}
	if !reflect.DeepEqual(got.Kinds, want.Kinds) || !reflect.DeepEqual(got.Notes, want.Notes) || got.Name != want.Name {
		return fmt.Sprintf("kinds or notes: direct %v %q, tree %v %q", got.Kinds, got.Notes, want.Kinds, want.Notes)
	}
	if len(got.Restore) != len(want.Restore) {
		return fmt.Sprintf("%d objects, tree %d", len(got.Restore), len(want.Restore))
	}
	for i := range got.Restore {
		g, w := got.Restore[i], want.Restore[i]
		if g.Line != w.Line || g.Path != w.Path || !reflect.DeepEqual(plainObject(g.Object), plainObject(w.Object)) {
			return fmt.Sprintf("object %d: direct %s:%d %#v\ntree %s:%d %#v", i, g.Path, g.Line, *g.Object, w.Path, w.Line, *w.Object)
		}
	}
	return ""
}

// repositoryDumps returns every dump the repository has: examples/dumps,
// the dumps of the CLI's test scripts, and dumpgen's at several shapes.
func repositoryDumps(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	files, _ := filepath.Glob("../examples/dumps/*")
	scripts, _ := filepath.Glob("../cmd/gcplay/testdata/script/*.txtar")
	for _, f := range scripts {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, af := range a.Files {
			if ext := filepath.Ext(af.Name); (ext == ".yaml" || ext == ".json") && IsDump(af.Data) {
				out[filepath.Base(f)+"/"+af.Name] = af.Data
			}
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = data
	}
	for _, o := range []dumpgen.Options{{ReplicaSets: 1, Pods: 1}, {ReplicaSets: 3, Pods: 40}, {ReplicaSets: 20, Pods: 0}, {ReplicaSets: 2, Pods: 5, JSON: true}, {ReplicaSets: 3, Pods: 25, Kubectl: true}, {ReplicaSets: 2, Pods: 11, Kubectl: true, JSON: true}} {
		var buf bytes.Buffer
		if err := dumpgen.Write(&buf, o); err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("dumpgen %+v", o)] = buf.Bytes()
	}
	if len(files) == 0 || len(out) < len(files)+6 {
		t.Fatalf("only %d dumps found", len(out))
	}
	return out
}

// TestDumpDirectMatchesTree: every dump of the repository reads the same
// with the direct decoding of List entries as through their trees, and
// the direct decoding takes every entry of the dumps kubectl prints.
func TestDumpDirectMatchesTree(t *testing.T) {
	for name, data := range repositoryDumps(t) {
		diff, st := sameDumpReadStats(data)
		took := st.direct
		if diff != "" {
			t.Errorf("%s: %s", name, diff)
		}
		if strings.HasPrefix(name, "dumpgen") {
			var o dumpgen.Options
			fmt.Sscanf(name, "dumpgen {ReplicaSets:%d Pods:%d", &o.ReplicaSets, &o.Pods)
			want := o.Objects()
			if st.alone != 0 {
				t.Errorf("%s: %d entries read alone by yaml.v3, want none", name, st.alone)
			}
			if took != want {
				t.Errorf("%s: %d entries decoded directly, want %d", name, took, want)
			}
			if !strings.Contains(name, "JSON:true") && st.parallel != want {
				t.Errorf("%s: %d entries decoded in parallel, want %d", name, st.parallel, want)
			}
		}
		if strings.HasSuffix(name, "web.yaml") && took == 0 {
			t.Errorf("%s: no entry decoded directly", name)
		}
	}
}

// directCases are Lists whose entries are at the edges of what the direct
// decoding reads: each must read as through the trees, and those marked
// direct must be taken by it.
var directCases = []struct {
	name, text string
	direct     int // entries the direct decoding must take
}{
	{"plain", "kind: List\napiVersion: v1\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: v\n", 1},
	{"entry on the lines after its dash", "kind: List\nitems:\n-\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n", 1},
	{"wide dash", "kind: List\nitems:\n-   apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: a\n", 1},
	{"indented items", "kind: List\nitems:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: a\n      labels: {}\n      annotations: null\n      finalizers: []\n      ownerReferences: []\n", 0},
	{"values of every type", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  x:\n    s: 'it''s'\n    q: \"1\"\n    i: 12\n    n: -3\n    z: 0\n    b: false\n    t: true\n    nul: null\n    tilde: ~\n    e: {}\n    l: []\n    nested:\n    - - a\n      - b\n    -\n      k: v\n    - \n    seqAtKey:\n    - 1\n    - x: y\n      w: z\n", 1},
	{"null entry", "kind: List\nitems:\n-\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n", 1},
	{"flow entry", "kind: List\nitems:\n- {}\n", 0},
	{"scalar entry", "kind: List\nitems:\n- x\n", 0},
	{"missing kind", "kind: List\nitems:\n- apiVersion: v1\n  metadata:\n    name: a\n", 0},
	{"missing metadata", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n", 0},
	{"metadata null", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n", 0},
	{"metadata empty", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {}\n", 0},
	{"metadata a list", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n  - name: a\n", 0},
	{"kind a number", "kind: List\nitems:\n- apiVersion: v1\n  kind: 3\n  metadata:\n    name: a\n", 0},
	{"empty apiVersion", "kind: List\nitems:\n- apiVersion: \"\"\n  kind: ConfigMap\n  metadata:\n    name: a\n", 0},
	{"unserved version", "kind: List\nitems:\n- apiVersion: v2\n  kind: Pod\n  metadata:\n    name: a\n", 0},
	{"unknown metadata key", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    nmae: b\n", 0},
	{"duplicate metadata key", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    name: b\n", 0},
	{"duplicate top key", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  kind: ConfigMap\n  metadata:\n    name: a\n", 0},
	{"duplicate field key", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    a: b\n    a: c\n", 0},
	{"duplicate top field", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  data: {}\n  metadata:\n    name: a\n  data: {}\n", 0},
	{"merge key", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    <<: {}\n", 0},
	{"quoted merge key is a key", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    '<<': x\n", 1},
	{"anchor", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: &n a\n", 0},
	{"generateName only", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    generateName: a-\n", 1},
	{"no name", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: \"\"\n    namespace: x\n", 0},
	{"name a number", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: 5\n", 0},
	{"name on the next line", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name:\n      a\n", 0},
	{"name null", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: null\n    generateName: g-\n", 1},
	{"namespace on a cluster kind", "kind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: a\n    namespace: x\n", 0},
	{"empty namespace", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    namespace: \"\"\n", 1},
	{"integers", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    generation: 12\n    deletionGracePeriodSeconds: 0\n", 1},
	{"negative generation", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    generation: -1\n", 0},
	{"quoted generation", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    generation: \"1\"\n", 0},
	{"huge generation", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    generation: 99999999999999999999\n", 0},
	{"times", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    creationTimestamp: \"2026-01-01T00:00:00Z\"\n    deletionTimestamp: 2026-01-02T00:00:00+02:00\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n    creationTimestamp: \"2026-01-01T00:00:00Z\"\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n    creationTimestamp: \"2026-01-03T00:00:00Z\"\n    deletionTimestamp: null\n", 3},
	{"bad time", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    creationTimestamp: yesterday\n", 0},
	{"time a mapping", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    creationTimestamp: {}\n", 0},
	{"labels", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    labels:\n      a: b\n      c:\n      d: null\n      e: \"\"\n", 1},
	{"label a number", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    labels:\n      a: 1\n", 0},
	{"label a mapping", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    labels:\n      a:\n        b: c\n", 0},
	{"duplicate label", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    labels:\n      a: b\n      a: b\n", 0},
	{"labels a list", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    labels:\n    - a\n", 0},
	{"labels a string", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    labels: a\n", 0},
	{"finalizers", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    finalizers:\n    - example.com/x\n    - \"y\"\n", 1},
	{"finalizers indented", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    finalizers:\n      - x\n", 1},
	{"finalizer null", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    finalizers:\n    -\n", 0},
	{"finalizer a number", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    finalizers:\n    - 1\n", 0},
	{"finalizers a string", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    finalizers: x\n", 0},
	{"owner without uid", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: o\n    uid: u1\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    ownerReferences:\n    - apiVersion: v1\n      kind: ConfigMap\n      name: o\n      controller: false\n      blockOwnerDeletion: null\n", 2},
	{"owner without uid or name", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    ownerReferences:\n    - apiVersion: v1\n      kind: ConfigMap\n", 0},
	{"owner of an unknown kind", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    ownerReferences:\n    - apiVersion: x/v1\n      kind: Thing\n      name: t\n", 0},
	{"owner of an unknown kind with uid", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    ownerReferences:\n    - apiVersion: x/v1\n      kind: Thing\n      name: t\n      uid: u\n", 1},
	{"owner unknown key", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    ownerReferences:\n    - uid: u\n      nmae: t\n", 0},
	{"owner duplicate key", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    ownerReferences:\n    - uid: u\n      uid: v\n", 0},
	{"owner controller True", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    ownerReferences:\n    - uid: u\n      controller: True\n", 0},
	{"owner controller a string", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    ownerReferences:\n    - uid: u\n      controller: \"true\"\n", 0},
	{"owner a string", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    ownerReferences:\n    - u\n", 0},
	{"owners a mapping", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    ownerReferences:\n      uid: u\n", 0},
	{"managed fields", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    selfLink: /api/v1/x\n    managedFields:\n    - apiVersion: v1\n      fieldsType: FieldsV1\n      fieldsV1:\n        f:data:\n          .: {}\n          f:a: {}\n          f:a: {}\n          <<: x\n        k:{\"type\":\"Ready\"}:\n          -\n          - 1.5\n      manager: kubectl\n", 1},
	{"managed fields outside the subset", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    managedFields:\n    - a: &x b\n", 0},
	{"custom kinds", "kind: List\nitems:\n- apiVersion: x.io/v1\n  kind: Thing\n  metadata:\n    name: a\n    namespace: n\n- apiVersion: x.io/v1\n  kind: Thing\n  metadata:\n    name: b\n    namespace: n\n- apiVersion: x.io/v1\n  kind: Cluster\n  metadata:\n    name: c\n- apiVersion: x.io/v1\n  kind: Cluster\n  metadata:\n    name: d\n", 2},
	{"custom kind whose scope disagrees", "kind: List\nitems:\n- apiVersion: x.io/v1\n  kind: Thing\n  metadata:\n    name: a\n    namespace: n\n- apiVersion: x.io/v1\n  kind: Thing\n  metadata:\n    name: b\n    namespace: null\n", 0},
	{"custom kind not a kind name", "kind: List\nitems:\n- apiVersion: x.io/v1\n  kind: thing-x\n  metadata:\n    name: a\n", 0},
	{"typed fields", "kind: List\nitems:\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: a\n  spec:\n    replicas: 999999999\n    template:\n      spec:\n        nodeName: n\n        priority: null\n", 1},
	{"replicas negative", "kind: List\nitems:\n- apiVersion: apps/v1\n  kind: ReplicaSet\n  metadata:\n    name: a\n  spec:\n    replicas: -1\n", 0},
	{"replicas past int32", "kind: List\nitems:\n- apiVersion: apps/v1\n  kind: ReplicaSet\n  metadata:\n    name: a\n  spec:\n    replicas: 3000000000\n", 0},
	{"replicas near int32", "kind: List\nitems:\n- apiVersion: apps/v1\n  kind: ReplicaSet\n  metadata:\n    name: a\n  spec:\n    replicas: 2000000000\n", 0},
	{"replicas a float", "kind: List\nitems:\n- apiVersion: apps/v1\n  kind: ReplicaSet\n  metadata:\n    name: a\n  spec:\n    replicas: 3.0\n", 0},
	{"replicas a string", "kind: List\nitems:\n- apiVersion: apps/v1\n  kind: ReplicaSet\n  metadata:\n    name: a\n  spec:\n    replicas: \"3\"\n", 0},
	{"nodeName a number", "kind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: a\n  spec:\n    nodeName: 5\n", 0},
	{"restartPolicy a date", "kind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: a\n  spec:\n    restartPolicy: 2026-01-01\n", 0},
	{"spec a list", "kind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: a\n  spec:\n  - nodeName: 5\n", 1},
	{"float field", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  x: 1.5\n", 0},
	{"octal field", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  x: 007\n", 0},
	{"infinity", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  x: .inf\n", 0},
	{"multi-line string", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: |\n      line\n", 1},
	{"plain string over lines", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: one\n      two\n", 1},
	{"tab", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n\tdata: {}\n", 0},
	{"text after the list", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  x\n", 0},
	{"bad indentation", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n   data: {}\n", 0},
	{"same name twice", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n", 2},
	{"several documents", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n---\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n", 2},
	{"not a List", "kind: Thing\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n", 0},
	{"a List without its kind", "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n", 0},
	{"an object with items", "apiVersion: x.io/v1\nkind: Thing\nmetadata:\n  name: t\nitems:\n- a\n- apiVersion: v1\n  kind: ConfigMap\n", 0},
	{"a List whose kind comes last", "items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\nkind: ConfigMapList\n", 1},
	{"json", `{"kind": "List", "items": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "labels": {"a": "b", "c": null}, "finalizers": ["f"], "creationTimestamp": "2026-01-01T00:00:00Z"}, "data": {"k": "v\u0041", "n": -0, "l": [1, true, null, {}, []]}}]}`, 1},
	{"json array of manifests", `[{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "b"}}]`, 2},
	{"json duplicate key", `{"kind": "List", "items": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "name": "b"}}]}`, 0},
	{"json float", `{"kind": "List", "items": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "x": 1.5}]}`, 0},
	{"json negative generation", `{"kind": "List", "items": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "generation": -1}}]}`, 0},
	{"json replicas negative", `{"kind": "List", "items": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "a"}, "spec": {"replicas": -1}}]}`, 0},
	{"json entry a string", `{"kind": "List", "items": ["x", {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}]}`, 1},
	{"json owner", `{"kind": "List", "items": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "o", "uid": "u"}}, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "ownerReferences": [{"apiVersion": "v1", "kind": "ConfigMap", "name": "o", "controller": true}]}}]}`, 2},
	{"json syntax error", `{"kind": "List", "items": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"},}]}`, 0},
	{"json deep", `{"kind": "List", "items": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "x": ` + strings.Repeat("[", 150) + strings.Repeat("]", 150) + `}]}`, 0},
	{"deep", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  x:\n" + deepList(150), 0},
	{"too deep", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  x:\n" + deepList(250), 0},
	{"literal block", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    annotations:\n      kubectl.kubernetes.io/last-applied-configuration: |\n        {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}\n\n        # not a comment\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n", 2},
	{"folded plain", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n  data:\n    m: a message kubectl folds\n      over two lines\n# between\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: c\n", 3},
	{"folded quoted", "items:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: \"a message \\\"quoted\\\"\n      over\n\n      three lines\"\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\nkind: List\n", 2},
	{"folded then wrong", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: >-\n      folded\n      text\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    name: b\n", 1},
	{"folded, bad indentation", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: \"open\nclosed\"\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n", 0},
	{"folded with an anchor", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: &x |\n      text\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n", 0},
	{"tab in a block", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: |\n      a\n      \tb\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n", 1},
	{"literal strip", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: |-\n      one\n        two\n\n      three\n\n\n    j: x\n", 1},
	{"literal clip, trailing lines", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: |\n\n      one\n   \n        \n      two  \n\n\n# after\n", 1},
	{"literal at the end", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: |-\n      one", 1},
	{"literal leading lines too long", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: |\n         \n      one\n", 0},
	{"literal outdented line", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: |\n      one\n     two\n", 0},
	{"literal keep", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: |+\n      one\n\n", 1},
	{"literal indicator", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: |2\n      one\n", 1},
	{"literal as finalizers", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    finalizers: |\n      a\n", 0},
	{"literal as labels", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    labels: |\n      a\n", 0},
	{"literal as owners", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    ownerReferences: |\n      a\n", 0},
	{"literal as generation", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    generation: |\n      1\n", 0},
	{"literal in a list", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k:\n    - a: |\n        one\n      b: 2\n    - |\n      two\n", 0},
	{"literal in a list item's map", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k:\n    - a: |\n        one\n      b: 2\n", 1},
	{"literal with a tab", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: |\n      one\n      \ttwo\n", 0},
	{"literal, then a tab", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: |\n      one\n\ttwo\n", 0},
	{"literal in a shared block", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: |\n      one\n    j: 1\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n  data:\n    k: |\n      one\n    j: 1\n", 2},
	{"literal annotations", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    annotations:\n      kubectl.kubernetes.io/last-applied-configuration: |\n        {\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"a\",\"namespace\":\"default\"}}\n      other: x\n    name: a\n    namespace: default\n", 1},
	{"folded plain, three lines and an empty one", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: one\n      two   \n\n      three\n    n: x\n", 1},
	{"folded plain, two empty lines at the end", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: one\n      two\n\n\n", 1},
	{"folded plain, a timestamp", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: 2001-12-14\n      21:59:43.10\n", 0},
	{"folded plain, a comment line", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: one\n      # two\n", 1},
	{"folded plain, a dash", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: one\n      - two\n", 0},
	{"folded plain, a key", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: one\n      two: x\n", 0},
	{"folded single-quoted", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: 'it''s one\n\n      two ''x''\n        three'\n    n: x\n", 1},
	{"folded single-quoted, text after", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: 'one\n      two' x\n", 0},
	{"folded single-quoted, closed twice", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: 'one\n      two' 'x'\n", 0},
	{"folded single-quoted, not closed", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: 'one\n      two\n", 0},
	{"folded single-quoted, outdented", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: 'one\n    two'\n", 0},
	{"folded single-quoted, closed on the first line", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: 'one'\n      two\n", 0},
	{"folded single-quoted as generation", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    generation: '1\n      2'\n", 0},
	{"folded plain as a label", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n    labels:\n      a: one\n        two\n", 1},
	{"folded double-quoted", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: \"it's one\n\n      two 'x'\n        three\"\n    n: x\n", 1},
	{"folded double-quoted, an escape", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: \"one\n      two \\\" x\"\n", 1},
	{"folded double-quoted, an escaped break", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: \"one\\\n      two\"\n", 1},
	{"folded double-quoted, text after", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: \"one\n      two\" x\n", 0},
	{"folded double-quoted, two quotes", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    m: \"one\n      two\"\"\n", 0},
	{"invalid UTF-8 before the List", "\xf7: \nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n", 0},
	{"invalid UTF-8 in an entry", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: \"\xe9\"\n", 0},
	{"invalid UTF-8 after the List", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n# \xc3\n", 0},
	{"a control character", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\x01\n", 0},
	{"DEL", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\x7f\n", 0},
	{"NEL, a line break to yaml.v3", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: one\xc2\x85    two\n", 0},
	{"U+2028", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: one\xe2\x80\xa8two\n", 0},
	{"a byte order mark", "\xef\xbb\xbfkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n", 0},
	{"a carriage return alone", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\r  data: {}\n", 0},
	{"other letters", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: caf\xc3\xa9 \xe4\xb8\xad\xf0\x9f\x99\x82\n", 1},
	{"json DEL", "{\"kind\": \"List\", \"items\": [{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\\u0041\x7f\"}}]}", 0},
	{"json invalid UTF-8", "{\"kind\": \"List\", \"items\": [{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\xff\"}}]}", 0},
	{"json array, an error", `[{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "b", "namespace": 5}}]`, 1},
	{"json List without its kind", `{"apiVersion": "v1", "items": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}]}`, 0},
	{"json array, then a List", "[{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\"}}]\n{\"kind\": \"List\", \"items\": [{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"b\", \"namespace\": 5}}]}", 1},
	{"nearly deep", "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  x:\n" + deepList(90), 1},
}

// blockScalarCases are List entries whose data holds a block scalar, k,
// each header with each body: a body's lines are its text after "k: "
// and the header, then "j: x" and a second entry follow unless the body
// ends the text. Their readings must be yaml.v3's.
func blockScalarCases() map[string]string {
	headers := []string{"|", "|-", "|+", ">", ">-", ">+", "|2", "|-2", "|2-", "|+1", ">1", ">2+", ">-3", "|9", "|0", "|--", "| # c", ">  "}
	bodies := map[string]string{
		"one line":                "\n      one\n",
		"two lines":               "\n      one\n      two\n",
		"folded paragraphs":       "\n      one\n      two\n\n      three\n\n\n      four\n",
		"more-indented":           "\n      one\n        two\n      three\n\n        four\n      five\n",
		"trailing spaces":         "\n      one  \n      two \n",
		"blank lines at the end":  "\n      one\n\n   \n",
		"leading empty lines":     "\n\n   \n      one\n",
		"leading lines too long":  "\n        \n      one\n",
		"whitespace-only lines":   "\n      one\n         \n      two\n",
		"a tab inside":            "\n      one\ttwo\n      \tthree\n",
		"a tab to indent":         "\n      one\n\ttwo\n",
		"a comment inside":        "\n      one\n      # two\n    # after\n",
		"a comment after":         "\n      one\n  # after\n",
		"crlf":                    "\r\n      one\r\n      two\r\n",
		"at the end":              "\n      one\n      two",
		"at the end, empty lines": "\n      one\n\n\n",
		"at the end, spaces":      "\n      one\n      ",
		"a document after":        "\n      one\n\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n",
		"outdented":               "\n      one\n     two\n",
		"empty":                   "\n",
		"first line short":        "\n     one\n",
		"deeper first line":       "\n        one\n      two\n",
		"quotes and escapes":      "\n      \"a\\\"b\" 'c' \\n #d\n",
	}
	out := map[string]string{}
	for _, h := range headers {
		for name, b := range bodies {
			text := "kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: " + h + b
			if !strings.HasPrefix(name, "at the end") && !strings.HasPrefix(name, "a document") {
				text += "    j: x\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n"
			}
			out[fmt.Sprintf("%q %s", h, name)] = text
		}
	}
	return out
}

// quotedCases are List entries with a double-quoted scalar that has
// escapes, on one line or folded over several, in the places a dump has
// them (a field, an annotation, a label, the name, the kind) and where a
// string is not wanted. Their readings must be yaml.v3's.
func quotedCases() map[string]string {
	values := map[string]string{
		"quote and backslash":        `"a \"b\" \\ c"`,
		"every short escape":         `"\0\a\b\t\n\v\f\r\e\ \"\'\\\N\_\L\P"`,
		"hex escapes":                `"\x41\u00e9\U0001F642\x7f\u2028"`,
		"a slash":                    `"a\/b"`,
		"an unknown escape":          `"a\qb"`,
		"a short hex escape":         `"a\u12"`,
		"a surrogate":                `"a\ud800"`,
		"past Unicode":               `"a\U00110000"`,
		"escaped space at the end":   `"a\ "`,
		"a comment after":            `"a\"b" # c`,
		"text after":                 `"a\"b" c`,
		"spaces after":               `"a\"b"   `,
		"not closed":                 `"a\"b`,
		"kubectl's last-applied":     `"{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"}}\n"`,
		"folded":                     "\"one \\\"two\\\"\n      three\"",
		"folded, an escaped break":   "\"one\\\n      two\"",
		"escaped break, empty lines": "\"one\\\n\n\n      two\"",
		"escaped break, spaces":      "\"one  \\\n        two\"",
		"escaped space, then break":  "\"one\\   \n      two\"",
		"escape at a line's end":     "\"one\\n\n      two\\t\"",
		"spaces before a break":      "\"one   \n      two\"",
		"folded, outdented":          "\"one\\\"\n    two\"",
		"folded, a tab":              "\"one\\\"\n      \ttwo\"",
		"folded, text after":         "\"one\\\"\n      two\" x",
	}
	out := map[string]string{}
	for name, v := range values {
		for _, place := range []string{"field", "annotation", "label", "name", "kind", "generation"} {
			meta, data, kind := "    name: a\n", "", "ConfigMap"
			switch place {
			case "field":
				data = "  data:\n    k: " + v + "\n"
			case "annotation":
				meta += "    annotations:\n      k: " + v + "\n"
			case "label":
				meta += "    labels:\n      k: " + v + "\n"
			case "name":
				meta = "    name: " + v + "\n"
			case "kind":
				kind = v
			case "generation":
				meta += "    generation: " + v + "\n"
			}
			out[name+" as "+place] = "kind: List\nitems:\n- apiVersion: v1\n  kind: " + kind + "\n  metadata:\n" + meta + data +
				"- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: \"b\\x62\"\n"
		}
	}
	return out
}

// TestDumpDirectQuoted: a double-quoted scalar with escapes reads as
// yaml.v3 reads it; the escapes kubectl prints are read directly.
func TestDumpDirectQuoted(t *testing.T) {
	direct := 0
	cases := quotedCases()
	for name, text := range cases {
		diff, st := sameDumpReadStats([]byte(text))
		if diff != "" {
			t.Errorf("%s: %s", name, diff)
		}
		direct += st.direct
		for _, v := range []string{"quote and backslash", "hex escapes", "kubectl's last-applied", "folded", "folded, an escaped break"} {
			for _, place := range []string{"field", "annotation"} {
				// (The folded ones' lines are indented for the field.)
				if name == v+" as "+place && st.direct != 2 && (place == "field" || !strings.HasPrefix(v, "folded")) {
					t.Errorf("%s: %d entries decoded directly, want 2", name, st.direct)
				}
			}
		}
	}
	t.Logf("%d entries of %d cases decoded directly", direct, len(cases))
}

// TestDumpDirectBlockScalars: a block scalar reads as yaml.v3 reads it,
// whatever its header and lines; those kubectl prints are read directly.
func TestDumpDirectBlockScalars(t *testing.T) {
	direct := 0
	cases := blockScalarCases()
	for name, text := range cases {
		diff, st := sameDumpReadStats([]byte(text))
		if diff != "" {
			t.Errorf("%s: %s", name, diff)
		}
		direct += st.direct
		for _, h := range []string{"|", "|-", ">", ">-", "|+", "|2"} {
			for _, b := range []string{"one line", "two lines", "folded paragraphs", "more-indented", "trailing spaces", "blank lines at the end", "whitespace-only lines", "a comment inside"} {
				if name == fmt.Sprintf("%q %s", h, b) && st.direct != 2 {
					t.Errorf("%s: %d entries decoded directly, want 2", name, st.direct)
				}
			}
		}
	}
	t.Logf("%d entries of %d cases decoded directly", direct, len(cases))
}

// deepList is a value nested n lists deep, under a key at column 3.
func deepList(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", 2+2*i) + "-\n")
	}
	b.WriteString(strings.Repeat(" ", 2+2*n) + "- x\n")
	return b.String()
}

func TestDumpDirectCases(t *testing.T) {
	for _, c := range directCases {
		t.Run(c.name, func(t *testing.T) {
			diff, took := sameDumpRead([]byte(c.text))
			if diff != "" {
				t.Error(diff)
			}
			if took != c.direct {
				t.Errorf("%d entries decoded directly, want %d", took, c.direct)
			}
		})
	}
}

// TestDumpDirectMutations: the dumps kubectl prints, each line of them
// deleted, repeated, re-indented or given another value, read the same
// with the direct decoding as through the trees (the same objects, or
// the same errors on the same lines).
func TestDumpDirectMutations(t *testing.T) {
	var gen bytes.Buffer
	if err := dumpgen.Write(&gen, dumpgen.Options{ReplicaSets: 1, Pods: 1}); err != nil {
		t.Fatal(err)
	}
	web, err := os.ReadFile("../examples/dumps/stuck.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var genKubectl bytes.Buffer
	if err := dumpgen.Write(&genKubectl, dumpgen.Options{ReplicaSets: 1, Pods: 1, Kubectl: true}); err != nil {
		t.Fatal(err)
	}
	var genJSON bytes.Buffer
	if err := dumpgen.Write(&genJSON, dumpgen.Options{ReplicaSets: 1, Pods: 1, JSON: true}); err != nil {
		t.Fatal(err)
	}
	yamlValues := []string{"", "null", "-1", "1.5", "{}", "[]", "x", "True", "2026-01-01", "&a x", "a: b"}
	jsonValues := []string{`"x",`, `null,`, `1e3,`, `-0,`, `{},`, `[],`, `true`, `"\u0041",`, `{"a": 1, "a": 2},`}
	mutants := 0
	for name, data := range map[string][]byte{"dumpgen": gen.Bytes(), "dumpgen -kubectl": genKubectl.Bytes(), "stuck.yaml": web, "dumpgen -json": genJSON.Bytes()} {
		values := yamlValues
		if strings.HasSuffix(name, "json") {
			values = jsonValues
		}
		lines := strings.SplitAfter(string(data), "\n")
		for i, line := range lines {
			try := func(what string, ls []string) {
				mutants++
				if diff, _ := sameDumpRead([]byte(strings.Join(ls, ""))); diff != "" {
					t.Errorf("%s, line %d %q %s: %s", name, i+1, strings.TrimSpace(line), what, diff)
				}
			}
			with := func(l string) []string {
				return append(append(append([]string(nil), lines[:i]...), l), lines[i+1:]...)
			}
			try("deleted", with(""))
			try("repeated", with(line+line))
			if !strings.HasSuffix(name, "json") { // JSON's spaces do not count
				try("indented", with("  "+line))
				try("outdented", with(strings.TrimPrefix(line, "  ")))
			}
			if k := strings.Index(line, ": "); k > 0 {
				for _, v := range values {
					try("valued "+v, with(line[:k+2]+v+"\n"))
				}
			} else if k := strings.Index(line, "- "); k >= 0 {
				for _, v := range values {
					try("item "+v, with(line[:k+2]+v+"\n"))
				}
			}
		}
	}
	t.Logf("%d mutants", mutants)
}

// FuzzDumpDirect: no input makes the reading of a dump panic, and every
// input reads the same with the direct decoding of List entries as
// through their trees.
func FuzzDumpDirect(f *testing.F) {
	for _, data := range repositoryDumps(f) {
		if len(data) < 64<<10 {
			f.Add(data)
		}
	}
	for _, c := range directCases {
		f.Add([]byte(c.text))
	}
	for _, text := range blockScalarCases() {
		f.Add([]byte(text))
	}
	for _, text := range quotedCases() {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if diff, _ := sameDumpRead(data); diff != "" {
			t.Fatal(diff)
		}
	})
}

// TestDumpDirectSharesBlocks: the entries of a List that repeat a block
// of lines (a Pod's containers, its whole spec) hold one value for it,
// read once; blocks that differ, even by a line after them or by their
// indentation, are read apart.
func TestDumpDirectSharesBlocks(t *testing.T) {
	pod := func(name, node, extra string) string {
		return "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: " + name + "\n  spec:\n    containers:\n    - image: nginx\n      name: c\n      resources: {}\n    nodeName: " + node + "\n" + extra
	}
	data := []byte("kind: List\nitems:\n" + pod("a", "n1", "") + pod("b", "n1", "") + pod("c", "n2", "  status:\n    containers:\n    - image: nginx\n      name: c\n      resources: {}\n") +
		pod("d", "n1", "  x:\n      containers:\n      - image: nginx\n        name: c\n        resources: {}\n"))
	if diff, took := sameDumpRead(data); diff != "" || took != 4 {
		t.Fatalf("%d entries decoded directly; %s", took, diff)
	}
	s, err := ParseDump("d.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	spec := func(i int, field string) map[string]any {
		return s.Restore[i].Object.Fields.Get(field).(map[string]any)
	}
	same := func(a, b any) bool { return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() }
	field := func(i int, name string) uintptr { return fieldValue(s.Restore[i].Object, name) }
	if field(0, "spec") == 0 || field(0, "spec") != field(1, "spec") {
		t.Error("the same spec is read twice")
	}
	if field(0, "spec") == field(2, "spec") {
		t.Error("specs that differ in nodeName are one")
	}
	if !same(spec(0, "spec")["containers"], spec(2, "spec")["containers"]) || !same(spec(0, "spec")["containers"], spec(2, "status")["containers"]) {
		t.Error("the same containers at the same indentation are read apart")
	}
	if same(spec(0, "spec")["containers"], spec(3, "x")["containers"]) {
		t.Error("containers indented otherwise are shared")
	}
	if !reflect.DeepEqual(spec(0, "spec")["containers"], spec(3, "x")["containers"]) {
		t.Error("containers indented otherwise read differently")
	}
}

// TestFirstLinesMatchesSplit: firstLines, which walks the text line by
// line, gives what it gave when it split the whole text into lines first.
func TestFirstLinesMatchesSplit(t *testing.T) {
	split := func(data []byte) []byte {
		var out bytes.Buffer
		for i, line := range bytes.SplitAfter(data, []byte("\n")) {
			if i > 0 && (bytes.HasPrefix(line, []byte("---")) || bytes.HasPrefix(line, []byte("..."))) {
				break
			}
			if len(line) > 0 && line[0] != ' ' && line[0] != '-' && line[0] != '#' && line[0] != '\t' && bytes.IndexByte(line, ':') > 0 {
				out.Write(line)
				if !bytes.HasSuffix(line, []byte("\n")) {
					out.WriteByte('\n')
				}
			}
		}
		return out.Bytes()
	}
	inputs := repositoryDumps(t)
	files, _ := filepath.Glob("testdata/*.yaml")
	for _, f := range append(files, exampleScenarios(t)...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = data
	}
	for i, s := range []string{"", "\n", "a: 1", "a: 1\n", "---\na: 1\n---\nb: 2\n", "a: 1\n...\nb: 2", "- a: 1\nkind: x\n", "a: 1\r\nb:\r\n",
		"# c: 1\n\tt: 1\n k: 1\nkind: List\nname:", "a: 1\n--- x\nb: 2\n", ":\nx:\n"} {
		inputs[fmt.Sprint("case ", i)] = []byte(s)
	}
	for name, data := range inputs {
		if got, want := firstLines(data), split(data); !bytes.Equal(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
}

// TestCutDocumentMatchesLines: cutDocument, which looks only at the lines
// that start with "---", cuts every text where a walk over all its lines
// (cutDocumentByLines, the browser build's cutDocument) does.
func TestCutDocumentMatchesLines(t *testing.T) {
	texts := []string{"", "\n", "---", "---\n", "--- \r\n", "a", "a\n", "a\n\n", "a\n---", "a\n---\nb", "a\n----\nb\n---\nc",
		"---x\n---\n", "a: 1\n--- \nb\n", "a\n  ---\n---\n", "a\r\n---\r\nb", "\n\n---\n\n", "a\n-- -\n---b\n---"}
	for _, text := range texts {
		for data := []byte(text); ; {
			d1, r1, n1 := cutDocument(data)
			d2, r2, n2 := cutDocumentByLines(data)
			if !bytes.Equal(d1, d2) || !bytes.Equal(r1, r2) || (r1 == nil) != (r2 == nil) || (r2 != nil && n1 != n2) {
				t.Fatalf("%q: cut %q %q %d, by lines %q %q %d", data, d1, r1, n1, d2, r2, n2)
			}
			if r1 == nil {
				break
			}
			data = r1
		}
	}
}

// TestDumpFaultyCharacters: a character yaml.v3 does not read (invalid
// UTF-8, a control character) is reported on its line and column, in a
// dump as in a scenario file, wherever it is: yaml.v3 itself names no
// line for it.
func TestDumpFaultyCharacters(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"\xf7: \nkind: List\nitems: []\n", "d.yaml:1: invalid YAML: invalid trailing UTF-8 octet (column 1, byte 0xf7)"},
		{"kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n  data:\n    k: \"\xe9\"\n", "d.yaml:8: invalid YAML: invalid trailing UTF-8 octet (column 9, byte 0xe9)"},
		{"kind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\x1b[0m\n", "d.yaml:6: invalid YAML: control characters are not allowed (column 12, byte 0x1b)"},
		{"{\"kind\": \"List\",\n \"items\": [{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\xc0\xaf\"}}]}", "d.yaml:2: invalid YAML: invalid length of a UTF-8 sequence (column 77, byte 0xc0)"},
	} {
		_, err := ParseDump("d.yaml", []byte(c.text))
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: %v, want %s", c.text, err, c.want)
		}
		_, err = Parse("d.yaml", []byte(c.text))
		if err == nil || err.Error() != c.want {
			t.Errorf("%q as a scenario: %v, want %s", c.text, err, c.want)
		}
	}
}

// TestDumpDirectCRLF: a dump whose lines end with CRLF (saved by an
// editor on Windows) reads as yaml.v3 reads it, and a kubectl-shaped one
// (block scalars, folded messages) wholly directly; the block-scalar
// and quoted cases too.
func TestDumpDirectCRLF(t *testing.T) {
	crlf := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }
	for name, data := range repositoryDumps(t) {
		diff, st := sameDumpReadStats(crlf(data))
		if diff != "" {
			t.Errorf("%s: %s", name, diff)
		}
		if strings.HasPrefix(name, "dumpgen") && st.alone != 0 {
			t.Errorf("%s: %d entries read alone by yaml.v3, want none", name, st.alone)
		}
	}
	for name, text := range blockScalarCases() {
		if diff, _ := sameDumpReadStats(crlf([]byte(text))); diff != "" {
			t.Errorf("%s: %s", name, diff)
		}
	}
	for name, text := range quotedCases() {
		if diff, _ := sameDumpReadStats(crlf([]byte(text))); diff != "" {
			t.Errorf("%s: %s", name, diff)
		}
	}
}
