package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
)

// standardNamespaces exist in every world from the start, so a saved
// world leaves them out.
var standardNamespaces = []string{"default", "kube-system", "kube-public", "kube-node-lease"}

// Save writes the current world of w as a scenario file called name, which
// Parse accepts and whose run recreates the same stored objects: the
// custom kinds, the running controllers, every object in creation order
// with its UID and its ownerReferences' UIDs, and, for each terminating
// object, a delete step (with the policy that gives back its GC
// finalizer, and its grace period) plus, when needed, a patch that puts
// its finalizers back in order. Server-set fields (resourceVersion,
// timestamps, generation) are left to the apiserver, and the collector's
// in-memory state is rebuilt by its own list, as after a restart.
func Save(w *engine.World, name string) ([]byte, error) {
	saved, err := saveEntries(w, name)
	return saved.text, err
}

// savedWorld is a world as Save writes it, with where each entry of its
// objects and steps lists is in the text, so that AsScenario can read
// them one at a time (parseSaved).
type savedWorld struct {
	text []byte
	// head is where the text's name, description, kinds and controllers
	// end.
	head    int
	entries []savedEntry
}

// savedEntry is one entry of a saved world's objects (or steps) list:
// text[start:end], whose first line is line.
type savedEntry struct {
	step             bool
	start, end, line int
}

func saveEntries(w *engine.World, name string) (savedWorld, error) {
	if !isName(name) {
		return savedWorld{}, fmt.Errorf("scenario name %q must match [a-z0-9-]+", name)
	}
	store := w.Store()
	reg := store.Registry()
	doc := mapNode()
	addField(doc, "name", strNode(name))
	addField(doc, "description", strNode(fmt.Sprintf("Saved by gcplay from a world at %s.", engine.FormatElapsed(w.Elapsed()))))
	var kinds []*yaml.Node
	for _, k := range reg.Kinds() {
		if k.Custom {
			m := mapNode()
			m.Style = yaml.FlowStyle
			addField(m, "apiVersion", strNode(k.APIVersion))
			addField(m, "kind", strNode(k.Kind))
			addField(m, "scope", strNode(string(k.Scope)))
			kinds = append(kinds, m)
		}
	}
	if len(kinds) > 0 {
		addField(doc, "kinds", seqNode(kinds...))
	}
	var ctrls []*yaml.Node
	for _, c := range w.Controllers() {
		ctrls = append(ctrls, strNode(c))
	}
	cn := seqNode(ctrls...)
	cn.Style = yaml.FlowStyle
	addField(doc, "controllers", cn)

	var buf bytes.Buffer
	buf.WriteString("# A gcplay scenario (format v1), saved from a running world.\n")
	if err := encodeYAML(&buf, doc); err != nil {
		return savedWorld{}, err
	}
	saved := savedWorld{head: buf.Len()}
	lines := bytes.Count(buf.Bytes(), []byte("\n"))
	// The objects are written one at a time, each as the one item of a
	// sequence of its own, indented as the document's objects list: the
	// same bytes as one document, but yaml.v3's emitter keeps every event
	// of a document to its end, and the nodes of one object at a time are
	// all that is held (docs/BENCHMARKS.md, "Thirteenth session
	// (2026-11-26): what run, what-if and export hold after the work").
	items := sequenceWriter{buf: &buf, key: "objects", lines: &lines, entries: &saved.entries}
	var steps []*yaml.Node
	for _, o := range store.ObjectsInCreationOrder() {
		if o.Kind == "Namespace" && o.Metadata.Namespace == "" && slices.Contains(standardNamespaces, o.Metadata.Name) {
			continue
		}
		n, err := manifestNode(o)
		if err != nil {
			return savedWorld{}, fmt.Errorf("%s: %w", o, err)
		}
		if err := items.add(n); err != nil {
			return savedWorld{}, err
		}
		if o.Metadata.DeletionTimestamp != nil {
			steps = append(steps, terminationSteps(reg, o)...)
		}
	}
	items = sequenceWriter{buf: &buf, key: "steps", lines: &lines, entries: &saved.entries, steps: true}
	for _, st := range steps {
		if err := items.add(st); err != nil {
			return savedWorld{}, err
		}
	}
	saved.text = buf.Bytes()
	return saved, nil
}

// encodeYAML writes n as a YAML document of its own, as Save writes
// scenario files (two spaces an indent).
func encodeYAML(buf *bytes.Buffer, n *yaml.Node) error {
	enc := yaml.NewEncoder(buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return err
	}
	return enc.Close()
}

// sequenceWriter appends the items of a top-level key's block sequence
// to a document, one item at a time, as yaml.v3 writes the whole
// sequence: the key before the first item, then each item as a sequence
// of its own, each line indented two spaces (empty lines, which the
// emitter leaves unindented inside block scalars, as they are).
type sequenceWriter struct {
	buf     *bytes.Buffer
	key     string
	started bool
	scratch bytes.Buffer
	// lines counts the lines written; entries gets where each item is.
	lines   *int
	entries *[]savedEntry
	steps   bool
}

func (w *sequenceWriter) add(item *yaml.Node) error {
	if !w.started {
		w.started = true
		doc := mapNode()
		addField(doc, w.key, seqNode())
		// A key with an empty sequence ends in " []": the key alone, with
		// the same quoting as the emitter gives it, is what precedes the
		// items.
		w.scratch.Reset()
		if err := encodeYAML(&w.scratch, doc); err != nil {
			return err
		}
		head, ok := bytes.CutSuffix(w.scratch.Bytes(), []byte(" []\n"))
		if !ok {
			return fmt.Errorf("saving %s: unexpected YAML %q", w.key, w.scratch.Bytes())
		}
		w.buf.Write(head)
		w.buf.WriteByte('\n')
		*w.lines += bytes.Count(head, []byte("\n")) + 1
	}
	w.scratch.Reset()
	if err := encodeYAML(&w.scratch, seqNode(item)); err != nil {
		return err
	}
	e := savedEntry{step: w.steps, start: w.buf.Len(), line: *w.lines + 1}
	for line := range bytes.Lines(w.scratch.Bytes()) {
		if len(line) > 1 {
			w.buf.WriteString("  ")
		}
		w.buf.Write(line)
		*w.lines++
	}
	e.end = w.buf.Len()
	*w.entries = append(*w.entries, e)
	return nil
}

// manifestNode renders an object as a manifest without the fields the
// apiserver sets.
func manifestNode(o *fakeapi.Object) (*yaml.Node, error) {
	c := o.DeepCopy()
	m := &c.Metadata
	m.ResourceVersion, m.Generation = "", 0
	m.CreationTimestamp, m.DeletionTimestamp, m.DeletionGracePeriodSeconds = nil, nil, nil
	b, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	n, err := jsonNode(dec, "")
	if err != nil {
		return nil, err
	}
	return n, nil
}

// terminationSteps returns the steps that make a freshly created copy of
// o terminating as o is: a delete with the policy that yields o's GC
// finalizer (R13: orphan, foregroundDeletion, or none with Background) and
// o's grace period, then a patch restoring the finalizer order if the
// apiserver's (GC finalizers last, R14) differs.
func terminationSteps(reg *fakeapi.Registry, o *fakeapi.Object) []*yaml.Node {
	ref := o.String()
	if info, err := reg.ByKind(o.Kind); err != nil || info.Kind != o.Kind || info.APIVersion != o.APIVersion {
		ref = "uid:" + o.Metadata.UID
	}
	fins := o.Metadata.Finalizers
	policy := "Background"
	var gc string
	switch {
	case slices.Contains(fins, fakeapi.FinalizerOrphanDependents):
		policy, gc = "Orphan", fakeapi.FinalizerOrphanDependents
	case slices.Contains(fins, fakeapi.FinalizerDeleteDependents):
		policy, gc = "Foreground", fakeapi.FinalizerDeleteDependents
	}
	del := mapNode()
	addField(del, "delete", strNode(ref))
	addField(del, "propagationPolicy", strNode(policy))
	if g := o.Metadata.DeletionGracePeriodSeconds; g != nil && *g > 0 {
		addField(del, "gracePeriodSeconds", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: fmt.Sprint(*g)})
	}
	out := []*yaml.Node{del}
	var after []string
	for _, f := range fins {
		if f != fakeapi.FinalizerOrphanDependents && f != fakeapi.FinalizerDeleteDependents {
			after = append(after, f)
		}
	}
	if gc != "" {
		after = append(after, gc)
	}
	if !slices.Equal(after, fins) {
		var items []*yaml.Node
		for _, f := range fins {
			items = append(items, strNode(f))
		}
		list := seqNode(items...)
		list.Style = yaml.FlowStyle
		meta := mapNode()
		addField(meta, "finalizers", list)
		merge := mapNode()
		merge.Style = yaml.FlowStyle
		addField(merge, "metadata", meta)
		p := mapNode()
		addField(p, "patch", strNode(ref))
		addField(p, "merge", merge)
		out = append(out, p)
	}
	return out
}

func mapNode() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"} }

func seqNode(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

// strNode returns a string scalar. Strings that YAML 1.1 readers (kubectl
// among them) would take for booleans are quoted.
func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	switch strings.ToLower(s) {
	case "y", "yes", "n", "no", "on", "off", "true", "false":
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func addField(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, strNode(key), v)
}

// jsonNode converts the next JSON value of dec to a YAML node, keeping
// key order. Lists of scalars and ownerReferences entries are written in
// flow style, as people write them.
func jsonNode(dec *json.Decoder, key string) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := mapNode()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := jsonNode(dec, k)
				if err != nil {
					return nil, err
				}
				addField(m, k, v)
			}
			_, err := dec.Token()
			return m, err
		case '[':
			s := seqNode()
			flow := true
			for dec.More() {
				v, err := jsonNode(dec, "")
				if err != nil {
					return nil, err
				}
				if v.Kind != yaml.ScalarNode {
					flow = false
				}
				if key == "ownerReferences" && v.Kind == yaml.MappingNode {
					v.Style = yaml.FlowStyle
				}
				s.Content = append(s.Content, v)
			}
			if flow && len(s.Content) > 0 {
				s.Style = yaml.FlowStyle
			}
			_, err := dec.Token()
			return s, err
		}
	case string:
		return strNode(t), nil
	case json.Number:
		tag := "!!int"
		if strings.ContainsAny(t.String(), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: t.String()}, nil
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(t)}, nil
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}
