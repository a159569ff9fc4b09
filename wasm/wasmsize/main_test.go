package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestPkgOf(t *testing.T) {
	for name, want := range map[string]string{
		"github.com_gcplay_gcplay_engine.__garbageCollector_.attemptToDeleteItem": "github.com/gcplay/gcplay/engine",
		"go.yaml.in_yaml_v3.yaml_parser_scan_flow_scalar":                         "go.yaml.in/yaml/v3",
		"charm.land_lipgloss_v2.Style.Render":                                     "charm.land/lipgloss/v2",
		"encoding_json.__decodeState_.object":                                     "encoding/json",
		"runtime.mallocgc":                                                        "runtime",
		"runtime.alloc_m":                                                         "runtime",
		"runtime_debug.SetGCPercent":                                              "runtime/debug",
		"main.main":                                                               "main",
	} {
		if got := pkgOf(name); got != want {
			t.Errorf("pkgOf(%q) = %q, want %q", name, got, want)
		}
	}
}

// leb appends v as unsigned LEB128.
func leb(b []byte, v int) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			b = append(b, c|0x80)
			continue
		}
		return append(b, c)
	}
}

func sec(id byte, body []byte) []byte { return append(leb([]byte{id}, len(body)), body...) }

func str(b []byte, s string) []byte { return append(leb(b, len(s)), s...) }

// A module with one imported function and two bodies, named as Go names
// them: the bodies are attributed to their packages, imports first.
func TestReportByPackage(t *testing.T) {
	imp := str(str(leb(nil, 1), "gojs"), "runtime.wasmExit")
	imp = append(imp, 0, 0)
	code := leb(nil, 2)
	code = append(leb(code, 5), 0, 0x41, 1, 0x1a, 0x0b)
	code = append(leb(code, 3), 0, 0x01, 0x0b)
	var names []byte
	names = leb(names, 3)
	names = str(leb(names, 0), "runtime.wasmExit")
	names = str(leb(names, 1), "github.com_gcplay_gcplay_engine.step")
	names = str(leb(names, 2), "encoding_json.Marshal")
	custom := str(nil, "name")
	custom = append(custom, 1)
	custom = append(leb(custom, len(names)), names...)
	mod := []byte("\x00asm\x01\x00\x00\x00")
	mod = append(mod, sec(2, imp)...)
	mod = append(mod, sec(10, code)...)
	mod = append(mod, sec(0, custom)...)
	var out bytes.Buffer
	if err := report(&out, mod, 10); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2 functions", "           5", "github.com/gcplay/gcplay/engine", "           3", "encoding/json", "custom name"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Index(out.String(), "gcplay/engine") > strings.Index(out.String(), "encoding/json") {
		t.Errorf("the larger package is not first:\n%s", out.String())
	}
	// Without names there is nothing to attribute: said, not guessed.
	if err := report(&out, mod[:len(mod)-len(sec(0, custom))], 10); err == nil {
		t.Errorf("a module without a name section gave no error")
	}
}
