package webtest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/internal/testenv"
)

// TestBrowserYAMLWithoutRegexp checks build.sh's edit of yaml v2's and
// v3's copies (their two package-level regexps replaced by gcplay's
// matchers, build/wasm-shim/yaml, and regexp no longer imported): that
// the versions go.mod pins are those PINNED names, that the copies the
// page's build used carry the edit, and that a program reading float-like
// scalars and writing base 60 float-like strings with both libraries
// prints the same in the browser build (run under node) as natively.
func TestBrowserYAMLWithoutRegexp(t *testing.T) {
	pinned, err := os.ReadFile("../build/wasm-shim/PINNED")
	if err != nil {
		t.Fatal(err)
	}
	for _, mod := range []string{"go.yaml.in/yaml/v2", "go.yaml.in/yaml/v3"} {
		var want string
		sc := bufio.NewScanner(strings.NewReader(string(pinned)))
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == mod {
				want = f[1]
			}
		}
		cmd := exec.Command("go", "list", "-m", "-f", "{{.Version}}", mod)
		cmd.Dir = ".."
		cmd.Env = append(os.Environ(), "GOWORK=off")
		have, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -m %s: %v", mod, err)
		}
		if want == "" || strings.TrimSpace(string(have)) != want {
			t.Errorf("go.mod pins %s %s, but build/wasm-shim/PINNED names %q: check that build.sh's edit of its regexps still applies, then change PINNED",
				mod, strings.TrimSpace(string(have)), want)
		}
	}

	site(t)
	work, err := filepath.Abs("../build/wasm/go.work")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(work); err != nil {
		t.Fatalf("%v: build the page with make web first", err)
	}
	for _, f := range []string{"yaml2/resolve.go", "yaml3/resolve.go", "yaml2/encode.go", "yaml3/encode.go"} {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(work), f))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "regexp") || !strings.Contains(string(b), " gcplay") {
			t.Errorf("build/wasm/%s: still uses regexp, or does not use gcplay's matcher", f)
		}
	}

	node, runner := testenv.NodeAndGoWasm(t, "it runs the browser build's WebAssembly", "wasm_exec_node.js")
	bin := filepath.Join(t.TempDir(), "yamlfloat.wasm")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./webtest/testdata/yamlfloat")
	build.Dir = ".."
	build.Env = append(os.Environ(), "GOWORK="+work, "GOOS=js", "GOARCH=wasm", "GOFLAGS=-buildvcs=false")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build for js: %v\n%s", err, out)
	}
	browser, err := exec.Command(node, runner, bin).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, browser)
	}
	native := exec.Command("go", "run", "./webtest/testdata/yamlfloat")
	native.Dir = ".."
	native.Env = append(os.Environ(), "GOWORK=off")
	want, err := native.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, want)
	}
	for _, line := range []string{
		`read "1.5": v2 float64 1.5 <nil>; v3 float64 1.5 <nil>`,
		`write "1:20": v2 "v: \"1:20\"" <nil>; v3 "v: \"1:20\"" <nil>`,
		`write "1:60": v2 "v: 1:60" <nil>; v3 "v: 1:60" <nil>`,
	} {
		if !strings.Contains(string(want), line+"\n") {
			t.Fatalf("natively, yamlfloat did not print %s:\n%s", line, want)
		}
	}
	if string(browser) != string(want) {
		t.Errorf("yaml in the browser build reads or writes otherwise than natively:\nbrowser build:\n%s\nnative:\n%s", browser, want)
	}
}
