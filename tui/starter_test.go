package tui

import (
	"reflect"
	"testing"

	"github.com/gcplay/gcplay/scenario"
)

// TestStarterIsAScenario: New reads the built-in starter with
// scenario.Parse, without ParseFile's look at whether it is a cluster
// dump: ParseFile must read it as a scenario too, to the same result.
func TestStarterIsAScenario(t *testing.T) {
	for name, data := range map[string][]byte{"deployment.yaml": starterDeployment, "replicaset.yaml": starterReplicaSet} {
		if scenario.IsDump(data) {
			t.Errorf("starter/%s reads as a cluster dump", name)
		}
		a, err := scenario.ParseFile(name, data)
		if err != nil {
			t.Fatal(err)
		}
		b, err := scenario.Parse(name, data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("starter/%s: ParseFile and Parse read it differently", name)
		}
	}
}
