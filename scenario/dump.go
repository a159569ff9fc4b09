package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/fakeapi"
)

// IsDump reports whether data looks like what kubectl prints (a v1 List,
// one or more manifests, YAML or JSON) rather than a scenario file: its
// first document is a mapping with a kind and no name at the top.
func IsDump(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		return true
	}
	var top struct {
		Kind any `yaml:"kind"`
		Name any `yaml:"name"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(firstLines(data)))
	if err := dec.Decode(&top); err != nil {
		return false
	}
	return top.Kind != nil && top.Name == nil
}

// firstLines returns the top-level lines of data's first document (those
// that start in the first column, a mapping's keys), enough for IsDump to
// read kind and name without decoding a large file.
func firstLines(data []byte) []byte {
	var out bytes.Buffer
	for i, line := range bytes.SplitAfter(data, []byte("\n")) {
		if i > 0 && (bytes.HasPrefix(line, []byte("---")) || bytes.HasPrefix(line, []byte("..."))) {
			break
		}
		if len(line) > 0 && line[0] != ' ' && line[0] != '-' && line[0] != '#' && line[0] != '\t' && bytes.IndexByte(line, ':') > 0 {
			// A key with its value on the same line, or a key whose value
			// follows (read as null here).
			out.Write(line)
			if !bytes.HasSuffix(line, []byte("\n")) {
				out.WriteByte('\n')
			}
		}
	}
	return out.Bytes()
}

// ParseFile reads a scenario file or, when data is what kubectl prints, a
// cluster dump (ParseDump).
func ParseFile(filename string, data []byte) (*Scenario, error) {
	if IsDump(data) {
		return ParseDump(filename, data)
	}
	return Parse(filename, data)
}

var notNameRE = regexp.MustCompile(`[^a-z0-9-]+`)

// dumpObject is one object of a dump before it is checked.
type dumpObject struct {
	n    *yaml.Node
	path string
}

// ParseDump reads what `kubectl get -o yaml` or `-o json` prints (a v1
// List, several YAML documents, or plain manifests) as the starting world
// of a scenario whose objects are restored as they are (Scenario.Restore):
// UIDs, ownerReferences, finalizers, deletionTimestamp, labels, status.
// Server-only fields (managedFields, selfLink, resourceVersion) are
// tolerated. A kind gcplay does not know becomes a custom kind, namespaced
// when the dump's objects of it have a namespace, and a namespace the dump
// uses without its Namespace object is added; Notes say so. An
// ownerReference without a uid names an object of the dump by apiVersion,
// kind and name. Every problem names the file, the line and the field.
func ParseDump(filename string, data []byte) (*Scenario, error) {
	p := &parser{file: filename, budget: len(data) + maxAliasExpansion, dump: true}
	objs := p.dumpObjects(data)
	s := &Scenario{File: filename, Name: dumpName(filename)}
	reg := fakeapi.NewRegistry()
	if len(p.errs) == 0 {
		s.Kinds, s.Notes = p.impliedKinds(objs, reg)
	}
	if len(p.errs) > 0 {
		p.errs.sort()
		return nil, p.errs
	}
	var restore []Manifest
	for _, o := range objs {
		if m := p.manifest(o.n, o.path, reg); m != nil {
			restore = append(restore, *m)
		}
	}
	p.checkDumpIdentity(restore, reg)
	if len(p.errs) > 0 {
		p.errs.sort()
		return nil, p.errs
	}
	if len(restore) == 0 {
		return nil, ErrorList{{File: filename, Line: 1, Message: "the dump holds no objects"}}
	}
	s.Restore, s.Notes = orderRestore(restore, reg, s.Notes)
	return s, nil
}

// dumpName names the scenario after the file: "import-" and its base name.
func dumpName(filename string) string {
	base := strings.TrimSuffix(filepath.Base(filename), filepath.Ext(filename))
	base = strings.Trim(notNameRE.ReplaceAllString(strings.ToLower(base), "-"), "-")
	if base == "" || filename == "-" {
		return "import"
	}
	return "import-" + base
}

// dumpObjects reads every document and returns the manifests in order: a
// List's items, a list's entries, or the document itself.
func (p *parser) dumpObjects(data []byte) []dumpObject {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []dumpObject
	for doc := 0; ; doc++ {
		var d yaml.Node
		if err := dec.Decode(&d); err != nil {
			if !errors.Is(err, io.EOF) {
				p.errs = append(p.errs, YAMLError(p.file, data, err))
			}
			return out
		}
		root := deref(&d)
		if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
			root = deref(root.Content[0])
		}
		if isNull(root) {
			continue
		}
		prefix := ""
		if doc > 0 {
			prefix = fmt.Sprintf("documents[%d].", doc)
		}
		switch root.Kind {
		case yaml.SequenceNode:
			for i, e := range root.Content {
				out = append(out, dumpObject{deref(e), fmt.Sprintf("%s[%d]", strings.TrimSuffix(prefix, "."), i)})
			}
		case yaml.MappingNode:
			if items := lookupPath(root, []string{"items"}); items != nil && isList(root) {
				if items.Kind != yaml.SequenceNode {
					if !isNull(items) {
						p.errorf(items, prefix+"items", "expected a list, found %s", kindName(items))
					}
					continue
				}
				for i, e := range items.Content {
					out = append(out, dumpObject{deref(e), fmt.Sprintf("%sitems[%d]", prefix, i)})
				}
				continue
			}
			out = append(out, dumpObject{root, strings.TrimSuffix(prefix, ".")})
		default:
			p.errorf(root, strings.TrimSuffix(prefix, "."), "expected a manifest or a List (what kubectl get -o yaml prints), found %s", kindName(root))
		}
	}
}

// isList reports whether a mapping is a List: kind List, or any kind
// ending in List (kubectl get pods -o yaml prints kind: List; the API
// itself answers PodList).
func isList(n *yaml.Node) bool {
	k := lookupPath(n, []string{"kind"})
	return k != nil && k.Kind == yaml.ScalarNode && strings.HasSuffix(k.Value, "List")
}

// impliedKinds registers, for each apiVersion and kind the dump uses that
// gcplay does not serve, a custom kind with the scope its objects imply.
func (p *parser) impliedKinds(objs []dumpObject, reg *fakeapi.Registry) ([]fakeapi.KindInfo, []string) {
	type seen struct {
		apiVersion, kind string
		namespaced       *yaml.Node // an object with a namespace
		cluster          *yaml.Node // one without
		count            int
	}
	var order []*seen
	byKey := map[string]*seen{}
	for _, o := range objs {
		if o.n == nil || o.n.Kind != yaml.MappingNode {
			continue
		}
		av, k := lookupPath(o.n, []string{"apiVersion"}), lookupPath(o.n, []string{"kind"})
		if av == nil || k == nil || av.Kind != yaml.ScalarNode || k.Kind != yaml.ScalarNode {
			continue // manifest() reports it
		}
		if _, ok := reg.Lookup(av.Value, k.Value); ok || len(servedVersions(reg, k.Value)) > 0 || !kindNameRE.MatchString(k.Value) {
			continue
		}
		key := av.Value + " " + k.Value
		s := byKey[key]
		if s == nil {
			s = &seen{apiVersion: av.Value, kind: k.Value}
			byKey[key] = s
			order = append(order, s)
		}
		s.count++
		if ns := lookupPath(o.n, []string{"metadata", "namespace"}); !isNull(ns) {
			s.namespaced = ns
		} else {
			s.cluster = o.n
		}
	}
	var kinds []fakeapi.KindInfo
	var notes []string
	for _, s := range order {
		if s.namespaced != nil && s.cluster != nil {
			p.errorf(s.cluster, "", "%s %s: some objects have a namespace and this one has none, so the dump does not say whether %s is namespaced", s.apiVersion, s.kind, s.kind)
			continue
		}
		info := fakeapi.KindInfo{APIVersion: s.apiVersion, Kind: s.kind, Scope: fakeapi.Cluster, Custom: true}
		has := "has no namespace"
		if s.namespaced != nil {
			info.Scope = fakeapi.Namespaced
			has = "has a namespace"
		}
		what := "its object in the dump " + has
		if s.count > 1 {
			what = fmt.Sprintf("each of its %d objects in the dump %s", s.count, has)
		}
		if err := reg.Add(info); err != nil {
			p.errorf(s.namespaced, "", "%s %s: %v", s.apiVersion, s.kind, err)
			continue
		}
		kinds = append(kinds, info)
		notes = append(notes, fmt.Sprintf("%s (%s) is not built into gcplay: taken as a custom %s kind, since %s", s.kind, s.apiVersion, info.Scope, what))
	}
	return kinds, notes
}

// checkDumpIdentity reports two objects with one name or one UID, and
// resolves ownerReferences written without a uid to the dump's objects.
func (p *parser) checkDumpIdentity(objs []Manifest, reg *fakeapi.Registry) {
	type key struct{ kind, ns, name string }
	byName := make(map[key]*Manifest, len(objs))
	byUID := make(map[string]*Manifest, len(objs))
	for i := range objs {
		m := &objs[i]
		o := m.Object
		if o.Metadata.Name == "" {
			p.errorf(&yaml.Node{Line: m.Line}, m.Path+".metadata", "missing name: an object of a dump has one (generateName alone names no object yet)")
			continue
		}
		info, _ := reg.Lookup(o.APIVersion, o.Kind)
		k := key{info.Kind, o.Metadata.Namespace, o.Metadata.Name}
		if prev := byName[k]; prev != nil {
			p.errorf(&yaml.Node{Line: m.Line}, m.Path, "%s is also at line %d", o, prev.Line)
			continue
		}
		byName[k] = m
		if u := o.Metadata.UID; u != "" {
			if prev := byUID[u]; prev != nil {
				p.errorf(&yaml.Node{Line: m.Line}, m.Path+".metadata.uid", "uid %q is also the uid of %s at line %d", u, prev.Object, prev.Line)
				continue
			}
			byUID[u] = m
		}
	}
	// Plain manifests have no uid: give each its own, so that references
	// by name can point to it.
	for i := range objs {
		if o := objs[i].Object; o.Metadata.UID == "" {
			for n := i + 1; ; n++ {
				u := fmt.Sprintf("import-%04d", n)
				if byUID[u] == nil {
					o.Metadata.UID = u
					byUID[u] = &objs[i]
					break
				}
			}
		}
	}
	for i := range objs {
		m := &objs[i]
		for j := range m.Object.Metadata.OwnerReferences {
			r := &m.Object.Metadata.OwnerReferences[j]
			if r.UID != "" {
				continue
			}
			info, _ := reg.Lookup(r.APIVersion, r.Kind)
			ns := m.Object.Metadata.Namespace
			if !info.Namespaced() {
				ns = ""
			}
			owner := byName[key{info.Kind, ns, r.Name}]
			if owner == nil || owner.Object.Metadata.UID == "" {
				p.errorf(&yaml.Node{Line: m.Line}, fmt.Sprintf("%s.metadata.ownerReferences[%d]", m.Path, j),
					"%s has no uid and the dump holds no %s to take it from; give the uid", fakeapi.RefString(r.Kind, ns, r.Name), fakeapi.RefString(r.Kind, ns, r.Name))
				continue
			}
			r.UID = owner.Object.Metadata.UID
		}
	}
}

// orderRestore puts Namespaces first (each namespace an object uses must
// be stored before it), adding those the dump uses without their
// Namespace object, then the other objects in the dump's order.
func orderRestore(objs []Manifest, reg *fakeapi.Registry, notes []string) ([]Manifest, []string) {
	out := make([]Manifest, 0, len(objs))
	have := map[string]bool{}
	for _, ns := range standardNamespaces {
		have[ns] = true
	}
	for _, m := range objs {
		if m.Object.Kind == "Namespace" {
			out = append(out, m)
			have[m.Object.Metadata.Name] = true
		}
	}
	var added []string
	for _, m := range objs {
		info, _ := reg.Lookup(m.Object.APIVersion, m.Object.Kind)
		if ns := m.Object.Metadata.Namespace; info.Namespaced() && !have[ns] {
			have[ns] = true
			added = append(added, ns)
			out = append(out, Manifest{Line: m.Line, Path: m.Path, Object: &fakeapi.Object{APIVersion: "v1", Kind: "Namespace",
				Metadata: fakeapi.ObjectMeta{Name: ns}, Fields: map[string]any{"spec": map[string]any{"finalizers": []any{"kubernetes"}}, "status": map[string]any{"phase": "Active"}}}})
		}
	}
	for _, m := range objs {
		if m.Object.Kind != "Namespace" {
			out = append(out, m)
		}
	}
	if len(added) > 0 {
		notes = append(notes, fmt.Sprintf("the dump uses %s without %s: gcplay adds %s, active", plural(len(added), "namespace"), pronoun(len(added), "its Namespace object", "their Namespace objects"), strings.Join(slices.Clip(added), ", ")))
	}
	return out, notes
}

func pronoun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
