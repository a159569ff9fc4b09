package tui

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gcplay/gcplay/scenario"
)

// manifestCorpus returns every object, as JSON, that the repository's
// scenarios (examples, dumps, the course, the starter worlds, the scenario
// tests' files) end with.
func manifestCorpus(t *testing.T) [][]byte {
	t.Helper()
	var files []string
	for _, g := range []string{"../examples/*.yaml", "../examples/dumps/*.yaml", "../lessons/content/course/*.yaml",
		"../scenario/testdata/*.yaml", "../conformance/testdata/*.yaml", "starter/*.yaml"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	var out [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.ParseFile(f, data)
		if err != nil {
			continue // a file of the parser's own error tests
		}
		res := scenario.Run(s, scenario.RunOptions{})
		for _, o := range res.Objects {
			j, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, j)
		}
	}
	if len(out) < 100 {
		t.Fatalf("the corpus holds %d objects; the globs above have gone stale", len(out))
	}
	return out
}

// TestDirectYAMLIsJSONToYAML holds directYAML to yaml.v3's output for
// every object the repository's scenarios leave behind.
func TestDirectYAMLIsJSONToYAML(t *testing.T) {
	direct := 0
	corpus := manifestCorpus(t)
	for _, j := range corpus {
		want, err := jsonToYAML(j)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := directYAML(j)
		if !ok {
			continue
		}
		direct++
		if got != want {
			t.Fatalf("directYAML(%s):\n%s\nyaml.v3:\n%s", j, got, want)
		}
	}
	// Kubernetes objects are what directYAML is for: most go its way.
	if direct < len(corpus)*9/10 {
		t.Errorf("directYAML wrote %d of %d objects", direct, len(corpus))
	}
}

// TestStarterManifestsAreDirect: the starter worlds' objects (the page's
// first frame shows one) are written without the YAML library.
func TestStarterManifestsAreDirect(t *testing.T) {
	for _, name := range []string{"starter/deployment.yaml", "starter/replicaset.yaml"} {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.ParseFile(name, data)
		if err != nil {
			t.Fatal(err)
		}
		res := scenario.Run(s, scenario.RunOptions{})
		if len(res.Objects) == 0 {
			t.Fatalf("%s: no objects", name)
		}
		for _, o := range res.Objects {
			j, _ := json.Marshal(o)
			if _, ok := directYAML(j); !ok {
				t.Errorf("%s: %s/%s goes to yaml.v3", name, o.Kind, o.Metadata.Name)
			}
		}
	}
}

// TestDirectYAMLTricky: scalars chosen to sit on YAML's edges (types a
// plain string would turn into, indicators, quotes, spaces, dates, long
// keys, nesting) and random trees of them; whatever directYAML writes
// must be what yaml.v3 writes.
func TestDirectYAMLTricky(t *testing.T) {
	words := []string{"", " ", "a", "web", "true", "True", "tRue", "false", "FALSE", "null", "Null", "~", "<<",
		"yes", "no", "on", "off", "y", "n", "Y", "NO", "0", "1", "007", "0999", "123456789012345678901234567890",
		"1.5", "-1", "+1", "-", "- a", "-a", ".5", ".inf", "..", "...", "--- a", "---", "a---", "0x1F", "1_000", "1:30",
		"1e3", "9c8c8554d", "7c7f5449dd", "0abc", "0x1g", "0b2", "1z", "12 34", "1 a", "2024-01-02T03:04:05Z", "2024-13-02T03:04:05Z", "2024-01-02", "2024-1-2T3:4:5Z",
		"a: b", "a:b", "a:", ":a", ": a", "?", "?a", "? a", "a #b", "a#b", "#a", "a ", " a", "a  b",
		"it's", "'q'", "\"q\"", "say \"hi\"", "a,b", "[a]", "{a}", "a]", "&a", "*a", "!a", "|a", ">a", "%a", "@a", "`a",
		"back\\slash", "tab\there", "line\nbreak", "ünï", "app.kubernetes.io/name", "kubernetes.io/pvc-protection",
		"Deployment has minimum availability.", strings.Repeat("k", 128), strings.Repeat("k", 129)}
	scalars := []any{nil, true, false, json.Number("0"), json.Number("-3"), json.Number("1.5e+21"), json.Number("2.5")}
	for _, w := range words {
		scalars = append(scalars, w)
	}
	check := func(doc any) {
		t.Helper()
		j, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := directYAML(j)
		if !ok {
			return
		}
		want, err := jsonToYAML(j)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("directYAML(%s):\n%s\nyaml.v3:\n%s", j, got, want)
		}
	}
	for _, w := range words {
		for _, s := range scalars {
			check(map[string]any{w: s})
			check(map[string]any{"k": []any{s}, "m": map[string]any{w: []any{map[string]any{w: s, "z": s}}}})
		}
	}
	r := rand.New(rand.NewSource(19))
	var gen func(depth int) any
	gen = func(depth int) any {
		switch n := r.Intn(6); {
		case depth > 0 && n == 0:
			m := map[string]any{}
			for i := r.Intn(4); i > 0; i-- {
				m[words[r.Intn(len(words))]] = gen(depth - 1)
			}
			return m
		case depth > 0 && n == 1:
			var s []any
			for i := r.Intn(4); i > 0; i-- {
				s = append(s, gen(depth-1))
			}
			return s
		default:
			return scalars[r.Intn(len(scalars))]
		}
	}
	wrote := 0
	for i := 0; i < 5000; i++ {
		m := map[string]any{}
		for k := r.Intn(5) + 1; k > 0; k-- {
			m[fmt.Sprint("f", k)] = gen(4)
		}
		check(m)
		j, _ := json.Marshal(m)
		if _, ok := directYAML(j); ok {
			wrote++
		}
	}
	if wrote < 500 {
		t.Errorf("directYAML wrote only %d of 5000 random documents: the test no longer tries it", wrote)
	}
}

// BenchmarkManifestYAML: a starter Pod's manifest, written directly and by
// yaml.v3 (what a frame showing a changed object pays).
func BenchmarkManifestYAML(b *testing.B) {
	data, err := os.ReadFile("starter/deployment.yaml")
	if err != nil {
		b.Fatal(err)
	}
	s, err := scenario.ParseFile("starter/deployment.yaml", data)
	if err != nil {
		b.Fatal(err)
	}
	var j []byte
	for _, o := range scenario.Run(s, scenario.RunOptions{}).Objects {
		if o.Kind == "Pod" {
			j, _ = json.Marshal(o)
			break
		}
	}
	if j == nil {
		b.Fatal("the starter has no Pod")
	}
	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := directYAML(j); !ok {
				b.Fatal("the Pod went to yaml.v3")
			}
		}
	})
	b.Run("yaml.v3", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := jsonToYAML(j); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestIsUTCTimeIsTimeParse holds isUTCTime to what it replaced:
// time.Parse with YAML's timestamp layout, on strings of its form.
func TestIsUTCTimeIsTimeParse(t *testing.T) {
	parses := func(s string) bool {
		_, err := time.Parse("2006-1-2T15:4:5.999999999Z07:00", s)
		return err == nil
	}
	check := func(s string) {
		t.Helper()
		if got, want := isUTCTime(s), parses(s); got != want {
			t.Errorf("isUTCTime(%q) = %v, time.Parse says %v", s, got, want)
		}
	}
	n := 0
	// Every month and day, 00-39 of 00-19, in years around leap rules.
	for _, y := range []int{0, 1, 4, 100, 400, 1900, 1999, 2000, 2024, 2026, 2100, 9999} {
		for m := 0; m < 20; m++ {
			for d := 0; d < 40; d++ {
				check(fmt.Sprintf("%04d-%02d-%02dT12:30:30Z", y, m, d))
				n++
			}
		}
	}
	// The time of day, each field 00-99.
	for v := 0; v < 100; v++ {
		check(fmt.Sprintf("2026-01-01T%02d:00:00Z", v))
		check(fmt.Sprintf("2026-01-01T00:%02d:00Z", v))
		check(fmt.Sprintf("2026-01-01T00:00:%02dZ", v))
		check(fmt.Sprintf("2026-02-29T23:59:%02dZ", v))
		n += 4
	}
	// Not of the form.
	for _, s := range []string{"", "2026-01-01T00:00:00", "2026-01-01 00:00:00Z", "2026-1-01T00:00:00Z",
		"2026-01-01T00:00:00.5Z", "2026-01-01T00:00:00+00:00", "2026-01-01t00:00:00Z", "x026-01-01T00:00:00Z"} {
		if isUTCTime(s) {
			t.Errorf("isUTCTime(%q) = true", s)
		}
	}
	// A random sample of digits in the form.
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		b := []byte("dddd-dd-ddTdd:dd:ddZ")
		for j, c := range b {
			if c == 'd' {
				b[j] = byte('0' + r.Intn(10))
			}
		}
		check(string(b))
		n++
	}
	if n < 20000 {
		t.Fatalf("only %d strings checked", n)
	}
}
