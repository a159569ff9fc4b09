package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcplay/gcplay/internal/testenv"
)

// A program that leans on what the trimmed tables must still give the
// runtime: stack maps and unwinding for the collector (deep stacks,
// goroutines, a reflect.MakeFunc frame on the stack while it collects), a
// panic recovered, and the names kept for gcplay's own functions.
const trimProgram = `package main

import (
	"fmt"
	"reflect"
	"runtime"
	"runtime/debug"
)

type node struct {
	next *node
	val  []int
}

func deep(n int) int {
	if n == 0 {
		var keep *node
		for i := range 2000 {
			keep = &node{next: keep, val: make([]int, 64)}
			keep.val[0] = i
		}
		runtime.GC()
		s := 0
		for p := keep; p != nil; p = p.next {
			s += p.val[0]
		}
		return s
	}
	return deep(n-1) + 1
}

func work() (site string) {
	defer func() {
		if p := recover(); p != nil {
			site = fmt.Sprint(p, "\n", string(debug.Stack()))
		}
	}()
	var a []int
	_ = a[len(site)+3]
	return "no panic"
}

func main() {
	done := make(chan int)
	for g := range 4 {
		go func() { done <- deep(100 + g) }()
	}
	sum := 0
	for range 4 {
		sum += <-done
	}
	var add func(int, int) int
	fn := reflect.MakeFunc(reflect.TypeOf(add), func(args []reflect.Value) []reflect.Value {
		runtime.GC()
		return []reflect.Value{reflect.ValueOf(int(args[0].Int() + args[1].Int()))}
	})
	reflect.ValueOf(&add).Elem().Set(fn)
	fmt.Println("sum", sum, "add", add(2, 3))
	fmt.Println(work())
}
`

func TestTrimmedModuleRuns(t *testing.T) {
	node, runner := testenv.NodeAndGoWasm(t, "it runs the trimmed WebAssembly module", "wasm_exec_node.js")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(trimProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module github.com/gcplay/gcplay/trimtest\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", "full.wasm", ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOWORK=off", "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	full, err := os.ReadFile(filepath.Join(dir, "full.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	packed, _, _, err := Pack(full, MaxGap)
	if err != nil {
		t.Fatal(err)
	}
	trimmed, st, err := trimModule(packed, keepName)
	if err != nil {
		t.Fatal(err)
	}
	if st.Names == 0 || st.TableBytes == 0 {
		t.Errorf("nothing cleared: %+v", st)
	}
	if len(trimmed) != len(packed) {
		t.Errorf("the module changed size: %d -> %d", len(packed), len(trimmed))
	}
	run := func(name string, mod []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, mod, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(node, runner, path).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		return string(out)
	}
	before, after := run("packed.wasm", packed), run("trimmed.wasm", trimmed)
	// 4 x (1999*2000/2) + 100+101+102+103, then the recovered panic
	const want = "sum 7996406 add 5\nruntime error: index out of range [3] with length 0\ngoroutine 1 [running]:\n"
	for name, out := range map[string]string{"packed": before, "trimmed": after} {
		if !strings.HasPrefix(out, want) {
			t.Errorf("%s module printed %q, want it to start with %q", name, out, want)
		}
		// The program's own names stay: the trace names the function that panicked.
		if !strings.Contains(out, "\nmain.work()\n") {
			t.Errorf("%s module does not name the panicking function:\n%s", name, out)
		}
	}
	if !strings.Contains(before, "runtime/debug.Stack()") || strings.Contains(after, "runtime/debug.Stack()") {
		t.Errorf("runtime/debug.Stack keeps its name in the trimmed module, or has none before:\n%s\n%s", before, after)
	}
	if !strings.Contains(before, "main.go:") {
		t.Errorf("the untrimmed module has no file and line in its trace:\n%s", before)
	}
	if strings.Contains(after, "main.go:") || !strings.Contains(after, "?:0") {
		t.Errorf("the trimmed module still has files and lines in its trace:\n%s", after)
	}
	if _, _, err := trimModule(trimmed, keepName); err != nil {
		t.Errorf("trimming twice: %v", err)
	}
}
