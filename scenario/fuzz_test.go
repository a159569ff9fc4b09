package scenario

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// examplesDir is the project's example scenarios, relative to this package.
const examplesDir = "../examples"

func exampleScenarios(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(examplesDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no scenario files in %s: %v", examplesDir, err)
	}
	return files
}

// FuzzParse checks that no input makes Parse panic, that every error
// names the file, and that parsing is deterministic. Its seeds are this
// package's scenarios and the project's examples.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.yaml")
	for _, file := range append(files, exampleScenarios(f)...) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, seed := range []string{
		"",
		"name: a\n",
		"name: a\nsteps:\n  - expect: {absnt: []}\n",
		"name: a\nobjects:\n  - &o {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: [*o]}\n",
		"name: a\nsteps:\n  - delete: uid:x\n    dryRun: [All]\n  - patch: po/p\n    merge: {metadata: {finalizers: null}}\n",
		"name: a\nsteps:\n  - expect:\n      count: [{kind: Pod, selector: 'a in (b,c),!d', equals: 1}]\n      graph: {uid:u: {virtual: true}}\n",
		"name: a\n---\n- b\n",
		"name: [\n",
		"<<: {name: a}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.yaml", data)
		if err == nil {
			if s == nil {
				t.Fatal("Parse returned neither a scenario nor an error")
			}
			for _, st := range s.Steps {
				_ = st.Describe()
			}
			return
		}
		var list ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			t.Fatalf("error %T is not a non-empty ErrorList: %v", err, err)
		}
		for _, e := range list {
			if e.File != "fuzz.yaml" || !strings.HasPrefix(e.Error(), "fuzz.yaml") {
				t.Fatalf("error does not name the file: %q", e.Error())
			}
		}
		if _, err2 := Parse("fuzz.yaml", data); err2 == nil || err2.Error() != err.Error() {
			t.Fatalf("second parse differs:\n%v\nvs\n%v", err, err2)
		}
	})
}
