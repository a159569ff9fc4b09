// Command yamlfloat prints how yaml v2 and v3 read plain scalars that
// look (or nearly look) like floats, and whether they quote strings that
// look like base 60 floats: the two package-level regexps the browser
// build's copies replace by gcplay's matchers (build/wasm-shim/build.sh).
// TestBrowserYAMLWithoutRegexp runs it natively and in the browser build
// and compares.
package main

import (
	"fmt"
	"strings"

	yaml2 "go.yaml.in/yaml/v2"
	yaml3 "go.yaml.in/yaml/v3"
)

func main() {
	for _, s := range []string{
		"1.5", ".5", "-.5e3", "1e3", "1.", "+1.0E-2", "1_000.5", "12", "0x1F", "1:20",
		"190:20:30.15", ".inf", "-.Inf", ".nan", "1.2.3", "e3", "-", "+", ".", "1e", "abc",
		"-1.5e+10", "+.5E-3", "1.e5", ".e5", "1e+", "٣.5", "1.5x", "0.0", "-0",
	} {
		var v2, v3 map[string]any
		err2 := yaml2.Unmarshal([]byte("v: "+s), &v2)
		err3 := yaml3.Unmarshal([]byte("v: "+s), &v3)
		fmt.Printf("read %q: v2 %T %v %v; v3 %T %v %v\n", s, v2["v"], v2["v"], err2, v3["v"], v3["v"], err3)
	}
	for _, s := range []string{
		"1:20", "190:20:30.15", "-1:00", "+12:30.5", "1_0:59", "1:60", "1:2:3", "1.5", "1e3", "abc", "1:", ":20",
		"1:5", "1:123", "1:05.", "1:05._9", "1_:0", "_1:0", "1:0:", "1:0.5.5", "+1:59_", "-", "1::2",
	} {
		out2, err2 := yaml2.Marshal(map[string]string{"v": s})
		out3, err3 := yaml3.Marshal(map[string]string{"v": s})
		fmt.Printf("write %q: v2 %q %v; v3 %q %v\n", s, strings.TrimSpace(string(out2)), err2, strings.TrimSpace(string(out3)), err3)
	}
}
