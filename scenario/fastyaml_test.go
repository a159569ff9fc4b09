package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
	mustAccept := []string{"dump", "scalars", "nesting", "sequence root", "documents", "comments", "empty values", "../examples/dumps/web.yaml"}
	for name, data := range inputs {
		var fast []*yaml.Node
		ok := fastDocuments(data, "", nil, func(_ int, root *yaml.Node) bool {
			fast = append(fast, root)
			return true
		})
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
		if fastDocuments([]byte(src), "", nil, func(int, *yaml.Node) bool { return true }) {
			t.Errorf("the fast reader accepted %q", strings.ReplaceAll(src, "\n", `\n`))
		}
	}
}
