package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// NodeAndGoWasm returns the path of node, which runs Go's js/wasm builds,
// and of the file name in the Go distribution's lib/wasm (wasm_exec.js,
// the page's support code, or wasm_exec_node.js, its runner under node).
// Either missing ends the test (MissingTool); why says what node is for.
func NodeAndGoWasm(t testing.TB, why, name string) (node, file string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		MissingTool(t, "node", "apt-get install -y nodejs; "+why)
		return "", ""
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	file = filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", name)
	if _, err := os.Stat(file); err != nil {
		MissingTool(t, file, "part of the Go distribution since Go 1.24; reinstall Go")
		return "", ""
	}
	return node, file
}
