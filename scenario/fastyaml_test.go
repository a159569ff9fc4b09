package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/internal/dumpgen"
)

// sameTree reports the first difference between two trees, comparing what
// the parser reads: kind, resolved tag, value, line and column.
func sameTree(a, b *yaml.Node, path string) error {
	if a == nil || b == nil {
		if a != b {
			return fmt.Errorf("%s: one side is nil", path)
		}
		return nil
	}
	if a.Kind != b.Kind || a.ShortTag() != b.ShortTag() || a.Value != b.Value || a.Line != b.Line || a.Column != b.Column {
		return fmt.Errorf("%s: fast {kind %d tag %s value %q at %d:%d}, yaml.v3 {kind %d tag %s value %q at %d:%d}",
			path, a.Kind, a.ShortTag(), a.Value, a.Line, a.Column, b.Kind, b.ShortTag(), b.Value, b.Line, b.Column)
	}
	if len(a.Content) != len(b.Content) {
		return fmt.Errorf("%s: %d children, yaml.v3 %d", path, len(a.Content), len(b.Content))
	}
	for i := range a.Content {
		if err := sameTree(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i)); err != nil {
			return err
		}
	}
	return nil
}

func v3Documents(t *testing.T, data []byte) []*yaml.Node {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []*yaml.Node
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatalf("yaml.v3: %v", err)
			}
			return out
		}
		out = append(out, n.Content[0])
	}
}

// TestFastYAMLMatchesV3: wherever the fast reader accepts a text, its
// trees are those yaml.v3 builds: every scenario and example of the
// repository, dumps as kubectl prints them, and small cases at the edges
// of the subset.
func TestFastYAMLMatchesV3(t *testing.T) {
	inputs := map[string][]byte{}
	for _, glob := range []string{"testdata/*.yaml", "../examples/*.yaml", "../examples/dumps/*.yaml", "../lessons/*/*.yaml", "../tui/starter/*.yaml"} {
		files, _ := filepath.Glob(glob)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			inputs[f] = b
		}
	}
	var dump bytes.Buffer
	if err := dumpgen.Write(&dump, dumpgen.Options{ReplicaSets: 2, Pods: 3}); err != nil {
		t.Fatal(err)
	}
	inputs["dump"] = dump.Bytes()
	for name, src := range map[string]string{
		"scalars":       "a: 1\nb: -2\nc: 0x10\nd: 012\ne: 1.5\nf: true\ng: True\nh: yes\ni: null\nj: ~\nk: ''\nl: 'it''s'\nm: \"q\"\nn: 2026-01-01T00:00:00Z\no: .inf\np: /path\nq: 10.0.0.1\nr: 25%\ns: <<\n",
		"nesting":       "a:\n  b:\n  - c: 1\n    d:\n    - x\n    - y\n  -   e: 2\n  - - z\n  -\n    f: 3\n  - \ng: {}\nh: []\n",
		"sequence root": "- a\n- b: 1\n  c: 2\n",
		"documents":     "a: 1\n---\nb: 2\n---\n- c\n",
		"comments":      "# top\na: 1\n  # indented comment\nb:\n  # before\n  c: 2\n",
		"empty values":  "a:\nb:\n  c:\n",
	} {
		inputs[name] = []byte(src)
	}
	// The playground's starter is read at every start of the page, and
	// read by the fast reader it runs none of yaml.v3's parser there.
	mustAccept := []string{"dump", "scalars", "nesting", "sequence root", "documents", "comments", "empty values", "../examples/dumps/web.yaml", "../tui/starter/deployment.yaml"}
	for name, data := range inputs {
		var fast []*yaml.Node
		ok := fastDocuments(data, "", nil, func(_ int, root *yaml.Node) bool {
			fast = append(fast, root)
			return true
		}, nil, nil)
		if !ok {
			if slices.Contains(mustAccept, name) {
				t.Errorf("%s: the fast reader gave up", name)
			}
			continue
		}
		want := v3Documents(t, data)
		// yaml.v3 yields no document for an empty text.
		if len(fast) == 1 && fast[0] == nil && len(want) == 0 {
			continue
		}
		if len(fast) != len(want) {
			t.Errorf("%s: %d documents, yaml.v3 %d", name, len(fast), len(want))
			continue
		}
		for i := range fast {
			if err := sameTree(fast[i], want[i], name); err != nil {
				t.Errorf("%v", err)
			}
		}
	}
}

// TestFastYAMLGivesUp: text outside the subset is left to yaml.v3.
func TestFastYAMLGivesUp(t *testing.T) {
	for _, src := range []string{
		"a: &x 1\nb: *x\n", "a: !!str 1\n", "a: {b: 1}\n", "a: [1, 2]\n", "a: |\n  text\n",
		"a: >\n  text\n", "a: b\n  c\n", "a: \"x\\ny\"\n", "a: 1 # note\n", "%YAML 1.2\n---\na: 1\n",
		"a:\n\tb: 1\n", "a: b: c\n", "a: 'x\n  y'\n", "? a\n: b\n", "a:\n  b: 1\n c: 2\n", "- a\n  - b\n",
	} {
		if fastDocuments([]byte(src), "", nil, func(int, *yaml.Node) bool { return true }, nil, nil) {
			t.Errorf("the fast reader accepted %q", strings.ReplaceAll(src, "\n", `\n`))
		}
	}
}

// TestFastJSONMatchesV3: what kubectl get -o json prints is read into the
// trees yaml.v3 builds from the same text (JSON is YAML), with the same
// lines and columns; a List's items arrive one by one.
func TestFastJSONMatchesV3(t *testing.T) {
	var dump bytes.Buffer
	if err := dumpgen.Write(&dump, dumpgen.Options{ReplicaSets: 2, Pods: 2, JSON: true}); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"dump":   dump.Bytes(),
		"values": []byte("{\"kind\": \"List\", \"items\": [\n  {\"a\": 1, \"b\": -2.5, \"c\": 1e3, \"d\": true, \"e\": null,\n   \"f\": \"x\\ny \\u00e9\", \"g\": [], \"h\": {}, \"i\": [1, [2, {\"j\": \"k\"}]]}\n],\n\"metadata\": {\"resourceVersion\": \"\"}}\n"),
	} {
		want := v3Documents(t, data)
		var wantItems []*yaml.Node
		for _, w := range want {
			if it := lookupPath(w, []string{"items"}); it != nil {
				wantItems = append(wantItems, it.Content...)
				it.Content = nil
			}
		}
		// An item's nodes are compared as it comes: the reader reuses
		// their memory for the next one.
		var roots []*yaml.Node
		items := 0
		ok := fastJSONDocuments(data, func(_ int, n *yaml.Node) bool {
			if items < len(wantItems) {
				if err := sameTree(n, wantItems[items], fmt.Sprintf("%s item %d", name, items)); err != nil {
					t.Error(err)
				}
			}
			items++
			return true
		}, func(_ int, root *yaml.Node) bool {
			roots = append(roots, root)
			return true
		}, nil, nil)
		if !ok {
			t.Errorf("%s: the JSON reader gave up", name)
			continue
		}
		if items != len(wantItems) || len(roots) != len(want) {
			t.Errorf("%s: %d items and %d documents, yaml.v3 %d and %d", name, items, len(roots), len(wantItems), len(want))
			continue
		}
		for i := range roots {
			if err := sameTree(roots[i], want[i], fmt.Sprintf("%s document %d", name, i)); err != nil {
				t.Error(err)
			}
		}
	}
	// Two JSON values one after the other (two kubectl get -o json
	// outputs) are two documents, though YAML would want a --- between.
	docs := 0
	if !fastJSONDocuments([]byte("{\"kind\": \"List\", \"items\": [{\"a\": 1}]}\n{\"b\": 2}\n"), func(int, *yaml.Node) bool { return true }, func(int, *yaml.Node) bool {
		docs++
		return true
	}, nil, nil) || docs != 2 {
		t.Errorf("two JSON values: %d documents", docs)
	}
	for _, bad := range []string{`{"a": [1, }`, `{"a": 1,}`, `[1 2]`, `{"a" 1}`, `{"a": 01}`, `{"a": 1.}`, `{"a": -}`, `{"a": 1e}`,
		`{"a": "x\qy"}`, "{\"a\": \"x\ty\"}", `{"a": tru}`, `{"a": nul}`, `{"a": "x}`, `{"a": 1`, `{"a": 1} x`, `01`, `{"a": [1]]}`} {
		if fastJSONDocuments([]byte(bad), func(int, *yaml.Node) bool { return true }, func(int, *yaml.Node) bool { return true }, nil, nil) {
			t.Errorf("the JSON reader accepted %q", bad)
		}
	}
}

// TestPlainTagMatchesV3: the tag of a plain scalar is the one yaml.v3
// resolves, for words at the edges of its table (booleans and nulls in
// each case, YAML 1.1's yes/no/on/off, which are strings to yaml.v3) and
// the kinds of values a dump holds.
func TestPlainTagMatchesV3(t *testing.T) {
	for _, v := range []string{"true", "True", "TRUE", "tRUE", "false", "False", "FALSE", "null", "Null", "NULL", "nULL",
		"y", "Y", "yes", "Yes", "n", "N", "no", "NO", "on", "On", "off", "OFF", "t", "f", "o", "nginx", "terminationGracePeriodSeconds",
		"True1", "nulls", "falsey", "apps/v1", "/dev/termination-log", "IfNotPresent", "x", "Z", "10.0.0.1", "0", "7", "10", "07", "1e3",
		"0x1F", ".5", "-1", "+1", "~", "2026-01-01", "2026-01-01T00:00:00Z", "1_000", "<<", ".inf", "-.inf", ".nan",
		"5d8c7f00", "10.0.0.1x", "0_x1F", "0X1f", "+0x10", "-0b101", "0b2", "0o17", "0O17", "3Gi", "100m", "1.27", "0.5.1", "1-2", "7d",
		"12:30", "1e", "1e+", "-", "+", "-.5", "2026-1-2", "2026-01-01 10:00:00", "2026-01-01x", "20260101", "1__0", "0xg", "-inf", "1_e3", "-5d", "+1x", "-1.5e3", "-0x1F", "+.inf", "-1_0x",
		"192.168.100.200", "1.2.3", "1..2", "1.2.e3", "..5", "1.5.", "-1.2.3", "2026.01.01", "1_0.2.3"} {
		n := &yaml.Node{Kind: yaml.ScalarNode, Value: v}
		if got, want := plainTag(n.Value), n.ShortTag(); got != want {
			t.Errorf("plainTag(%q) = %s, yaml.v3 resolves %s", v, got, want)
		}
	}
}

// TestFastYAMLSharesStrings: the keys and short values a dump repeats are
// stored once, and a string is never changed by being shared.
func TestFastYAMLSharesStrings(t *testing.T) {
	data := []byte("items:\n- kind: Pod\n  image: nginx\n  name: a\n- kind: Pod\n  image: nginx\n  name: b\n")
	var items [][]string // the values of each entry's nodes, which are not kept
	ok := fastDocuments(data, "items", func(_ int, n *yaml.Node) bool {
		var values []string
		for _, c := range n.Content {
			values = append(values, c.Value)
		}
		items = append(items, values)
		return true
	}, func(int, *yaml.Node) bool { return true }, nil, nil)
	if !ok || len(items) != 2 {
		t.Fatalf("fastDocuments: ok %v, %d items", ok, len(items))
	}
	a, b := items[0], items[1]
	for i := 0; i < 4; i++ { // kind: Pod, image: nginx
		if a[i] != b[i] || unsafe.StringData(a[i]) != unsafe.StringData(b[i]) {
			t.Errorf("%q and %q are not one string", a[i], b[i])
		}
	}
	if a[5] != "a" || b[5] != "b" {
		t.Errorf("names %q and %q, want a and b", a[5], b[5])
	}
	f := &fastYAML{strs: map[string]string{}}
	for i := range internMax + 10 {
		f.str([]byte(fmt.Sprint(i)))
	}
	if len(f.strs) != internMax {
		t.Errorf("%d strings kept, want at most %d", len(f.strs), internMax)
	}
	long := bytes.Repeat([]byte("u"), 33)
	if s := f.str(long); s != string(long) || len(f.strs) != internMax {
		t.Errorf("a long string: %q, %d kept", s, len(f.strs))
	}
}

// TestDumpFastMatchesSlow: a dump read by fastYAML (or fastJSON) entry by entry, each
// entry's nodes reusing the memory of the one before, gives the objects
// yaml.v3 gives, field for field, with their lines and paths.
func TestDumpFastMatchesSlow(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		t.Run(fmt.Sprint("json=", asJSON), func(t *testing.T) { testDumpFastMatchesSlow(t, asJSON) })
	}
}

func testDumpFastMatchesSlow(t *testing.T, asJSON bool) {
	var buf bytes.Buffer
	if err := dumpgen.Write(&buf, dumpgen.Options{ReplicaSets: 3, Pods: 40, JSON: asJSON}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	fast := newDumpReader("d.yaml", data)
	read := func() bool { return fastDocuments(data, "items", fast.fastItem, fast.fastDoc, nil, nil) }
	if asJSON {
		read = func() bool {
			return fastJSONDocuments(data, fast.fastItem, fast.fastDoc, nil, fast.jsonArray)
		}
	}
	if !read() {
		t.Fatal("the fast reader gave up")
	}
	slow := newDumpReader("d.yaml", data)
	slow.slow(data)
	if len(fast.p.errs)+len(slow.p.errs) > 0 {
		t.Fatalf("errors: fast %v, slow %v", fast.p.errs, slow.p.errs)
	}
	if len(fast.restore) != len(slow.restore) || len(fast.restore) != 1+3*41 {
		t.Fatalf("%d objects, yaml.v3 %d", len(fast.restore), len(slow.restore))
	}
	for i := range fast.restore {
		f, s := fast.restore[i], slow.restore[i]
		fj, err := json.Marshal(f.Object)
		if err != nil {
			t.Fatal(err)
		}
		sj, _ := json.Marshal(s.Object)
		if f.Line != s.Line || f.Path != s.Path || !bytes.Equal(fj, sj) {
			t.Fatalf("object %d: fast %s:%d %s\nyaml.v3 %s:%d %s", i, f.Path, f.Line, fj, s.Path, s.Line, sj)
		}
	}
}

// TestPlainText: plainText, which looks at eight bytes at a time, takes a
// text exactly when each of its characters, read one at a time, is one
// the fast readers read as yaml.v3 does; and never a text in which
// yaml.v3's reader finds a fault.
func TestPlainText(t *testing.T) {
	oneByOne := func(d []byte) bool {
		for i := 0; i < len(d); {
			n, ok := plainChar(d, i)
			if !ok {
				return false
			}
			i += n
		}
		return true
	}
	base := []byte("a: b\nkey: 'caf\xc3\xa9'\n\tx\r\n")
	for c := range 256 {
		for pos := range len(base) {
			for _, width := range []int{1, 2} {
				d := slices.Clone(base)
				d[pos] = byte(c)
				if width == 2 && pos+1 < len(d) {
					d[pos+1] = 0x80
				}
				got, want := plainText(d), oneByOne(d)
				if got != want {
					t.Fatalf("%q: plainText %v, one by one %v", d, got, want)
				}
				if got && readerFault(d) >= 0 {
					t.Fatalf("%q: plain, but yaml.v3 would find a fault at %d", d, readerFault(d))
				}
			}
		}
	}
}
