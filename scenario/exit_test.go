package scenario

import (
	"strings"
	"testing"
)

func TestParseExit(t *testing.T) {
	const head = "name: t\nsteps:\n"
	s := mustParse(t, head+"  - exit: po/pi-1\n    code: 2\n  - exit: {selector: 'job-name=pi', count: 2}\n  - exit: {selector: app, namespace: batch}\n")
	var got []string
	for _, st := range s.Steps {
		got = append(got, st.Describe())
	}
	want := []string{"exit Pod/pi-1 --code 2", "exit -l job-name=pi --count 2", "exit -l app -n batch"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("steps %q, want %q", got, want)
	}
	for _, tc := range []struct{ src, want string }{
		{"  - exit: cm/x\n", "exit ends the containers of a Pod, not of a ConfigMap"},
		{"  - exit: po/x\n    code: 300\n", "an exit code is between 0 and 255, found 300"},
		{"  - exit: {count: 2}\n", "the selector form needs selector:"},
		{"  - exit: {selector: a, count: 0}\n", "count must be at least 1, found 0"},
		{"  - exit: {selector: a, cuont: 1}\n", `unknown key "cuont"`},
		{"  - exit: {selector: 'a in (b'}\n", "steps[0].exit.selector"},
		{"  - exit: po/x\n    queue: kubelet\n", `"queue" is not an option of an exit step (it takes code, expectError)`},
	} {
		errs := strings.Join(parseErrors(t, head+tc.src), "\n")
		if !strings.Contains(errs, tc.want) {
			t.Errorf("%q: errors\n%s\nwant one containing %q", tc.src, errs, tc.want)
		}
	}
}
