package webtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gcplay/gcplay/internal/testenv"
)

// TestCronJobTimeZoneInTheBrowser runs a CronJob scheduled in Europe/Paris
// (testdata/cronzone) as the page runs Go: built for js/wasm and started
// under node with wasm_exec.js's stand-in file system, where no time zone
// file can be read. The engine carries the time zone database, as
// kube-controller-manager does; without it the CronJob got
// UnknownTimeZone, an error a real cluster does not give for that zone.
func TestCronJobTimeZoneInTheBrowser(t *testing.T) {
	node, wasmExec := testenv.NodeAndGoWasm(t, "it runs the browser build's WebAssembly", "wasm_exec.js")
	bin := filepath.Join(t.TempDir(), "cronzone.wasm")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./webtest/testdata/cronzone")
	build.Dir = ".."
	build.Env = append(os.Environ(), "GOWORK=off", "GOOS=js", "GOARCH=wasm", "GOFLAGS=-buildvcs=false")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build for js: %v\n%s", err, out)
	}
	out, err := exec.Command(node, "testdata/cronzone/browserfs.js", wasmExec, bin).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	const want = "ok: the Job of 01:01 Europe/Paris was made at 00:01 UTC\n"
	if string(out) != want {
		t.Errorf("in the browser build the CronJob in Europe/Paris did not run on time:\n%s", out)
	}
}
