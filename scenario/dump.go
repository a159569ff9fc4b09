package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/lazyre"
)

// IsDump reports whether data looks like what kubectl prints (a v1 List,
// one or more manifests, YAML or JSON) rather than a scenario file: its
// first document is a mapping with a kind, or items, and no name at the
// top.
func IsDump(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		return true
	}
	var top map[string]any
	dec := yaml.NewDecoder(bytes.NewReader(firstLines(data)))
	if err := dec.Decode(&top); err != nil {
		return false
	}
	_, items := top["items"] // (its value is on the lines after it)
	return (top["kind"] != nil || items) && top["name"] == nil
}

// firstLines returns the top-level lines of data's first document (those
// that start in the first column, a mapping's keys), enough for IsDump to
// read kind and name without decoding a large file.
func firstLines(data []byte) []byte {
	var out bytes.Buffer
	// Line by line, without splitting the whole text first: a List's kind
	// comes after its items, so a large dump is read to its end.
	for i := 0; len(data) > 0; i++ {
		line := data
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			line, data = data[:j+1], data[j+1:]
		} else {
			data = nil
		}
		if line[0] == ' ' {
			continue // (the common case, decided at once)
		}
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

var notNameRE = lazyre.New(`[^a-z0-9-]+`)

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
//
// The block YAML kubectl prints is read by fastYAML one List item at a
// time, so that no more than one object's tree is held at once; other
// text (JSON, flow style, anchors) by yaml.v3.
//
// A List entry that is well formed is decoded straight from the text into
// its object (dumpdirect.go); any other goes through its tree and the
// checks, which report its problems.
func ParseDump(filename string, data []byte) (*Scenario, error) {
	s, _, err := parseDump(filename, data, true, 0)
	return s, err
}

// parseDump is ParseDump, with the direct decoding of List entries or
// without it (every entry through its tree, as the tests compare); it
// also says how many entries were decoded directly, and how many of them
// in parallel. chunk is how the
// direct decoding's entries are decoded in parallel (dumpparallel.go):
// 0 as ParseDump does it, when data is large and there are cores; < 0
// never; > 0 in chunks of that much text, whatever data's size.
func parseDump(filename string, data []byte, direct bool, chunk int) (*Scenario, readStats, error) {
	return parseDumpReleasing(filename, data, direct, chunk, nil, 0, plainTextAside(data))
}

// parseDumpReleasing is parseDump giving back, through rel when it is
// not nil, the memory of the text that the direct decoding of a YAML
// List's entries has read (ParseFileReleasing), every step bytes.
func parseDumpReleasing(filename string, data []byte, direct bool, chunk int, rel *TextRelease, step int, plain func() bool) (*Scenario, readStats, error) {
	if rel == nil {
		step = 0
	}
	d := newDumpReader(filename, data)
	yamlList := false
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] != '{' && t[0] != '[' {
		yamlList = direct && directDecoding
	}
	// The cut into chunks reads the whole text, as plainText does (plain:
	// on another core, for a large text): the two go on at once.
	var pre *predecoder
	if yamlList && chunk >= 0 {
		pre = cutPredecode(data, chunk, step)
	}
	if !plain() {
		// Characters the fast readers do not read as yaml.v3 does
		// (invalid UTF-8, a control character, a line break other than
		// a line feed): yaml.v3 reads the text, and reports the fault.
		d.slow(data)
		s, err := d.finish(filename)
		return s, readStats{}, err
	}
	var directItem func(int, *fastYAML, int) bool
	var directJSON func(int, *fastJSON, int) bool
	if direct && directDecoding {
		directItem, directJSON = d.directItem, d.directJSON
		if yamlList {
			d.pre = pre.start()
			defer closePredecode(d.pre)
			if step > 0 {
				d.rel = &releaser{data: data, rel: rel, step: step}
			}
		}
	}
	fast := func(data []byte) bool {
		return fastDocuments(data, "items", d.fastItem, d.fastDoc, directItem, &d.alone)
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		fast = func(data []byte) bool { return fastJSONDocuments(data, d.fastItem, d.fastDoc, directJSON, d.jsonArray) }
	}
	if !fast(data) {
		// yaml.v3 reads the whole text again: the workers stop first,
		// and the text given back is read again.
		closePredecode(d.pre)
		if err := d.rel.reload(); err != nil {
			return nil, readStats{}, ErrorList{{File: filename, Line: 1, Message: err.Error()}}
		}
		d = newDumpReader(filename, data)
		d.slow(data)
	}
	s, err := d.finish(filename)
	return s, readStats{d.direct, d.parallel, d.alone}, err
}

// finish checks the objects read and orders them as the scenario's
// starting world.
func (d *dumpReader) finish(filename string) (*Scenario, error) {
	p := d.p
	s := &Scenario{File: filename, Name: dumpName(filename), Kinds: d.kinds, Notes: d.kindNotes()}
	p.checkDumpIdentity(d.restore, d.reg)
	if len(p.errs) > 0 {
		p.errs.sort()
		return nil, p.errs
	}
	if len(d.restore) == 0 {
		return nil, ErrorList{{File: filename, Line: 1, Message: "the dump holds no objects"}}
	}
	s.Restore, s.Notes = orderRestore(d.restore, d.reg, s.Notes)
	return s, nil
}

// readStats says how many entries of a dump were decoded directly, and
// how many of those in parallel, and how many entries were read alone
// by yaml.v3.
type readStats struct{ direct, parallel, alone int }

// dumpReader turns a dump's objects into manifests as they are read.
type dumpReader struct {
	p       *parser
	reg     *fakeapi.Registry
	restore []Manifest
	kinds   []fakeapi.KindInfo
	// implied counts the objects of each kind taken as custom, and the
	// scope evidence, by "apiVersion kind".
	implied map[string]*impliedKind
	order   []*impliedKind
	// items counts the entries of the current document's List, or of
	// the JSON array of manifests that it is, when array is set.
	items int
	array bool
	share *sharer
	// direct counts the entries directItem took; kindCache and lastTime
	// serve it.
	direct    int
	kindCache fakeapi.KindCache
	// pre holds the entries decoded in parallel (dumpparallel.go, not
	// in the browser build), and parallel counts those of them kept.
	pre      *predecoder
	parallel int
	// rel gives back the text read (ParseFileReleasing); nil when the
	// text is kept whole.
	rel *releaser
	// alone counts the entries fastYAML could not read, read alone by
	// yaml.v3.
	alone    int
	lastTime struct {
		text string
		t    time.Time
	}
}

type impliedKind struct {
	info  fakeapi.KindInfo
	count int
}

func newDumpReader(filename string, data []byte) *dumpReader {
	return &dumpReader{
		p:       &parser{file: filename, budget: len(data) + maxAliasExpansion, dump: true},
		reg:     fakeapi.NewRegistry(),
		implied: map[string]*impliedKind{},
		share:   newSharer(),
	}
}

func docPrefix(doc int) string {
	if doc == 0 {
		return ""
	}
	return fmt.Sprintf("documents[%d]", doc)
}

// fastItem takes one entry of a List read by fastYAML.
func (d *dumpReader) fastItem(doc int, n *yaml.Node) bool {
	d.object(n, d.itemPath(doc))
	return true
}

// itemPath is the path of the next entry of document doc's List (or
// top-level array), and counts it.
func (d *dumpReader) itemPath(doc int) string {
	i := strconv.Itoa(d.items)
	d.items++
	switch {
	case d.array:
		return docPrefix(doc) + "[" + i + "]"
	case doc > 0:
		return docPrefix(doc) + ".items[" + i + "]"
	}
	return "items[" + i + "]"
}

// jsonArray is told when the entries of a JSON document that is an array
// (of manifests) start and end.
func (d *dumpReader) jsonArray(_ int, in bool) {
	d.array, d.items = in, 0
}

// fastDoc takes a document read by fastYAML; a List's items have gone to
// fastItem already. false when they went there though the document is
// not a List (a mapping with items but no kind, or another kind): it is
// one object, as yaml.v3's reading has it, and the text is read again so.
func (d *dumpReader) fastDoc(doc int, root *yaml.Node) bool {
	if d.items > 0 && (root == nil || !isList(root)) {
		return false
	}
	d.document(doc, root, true)
	d.items = 0
	return true
}

// slow reads every document with yaml.v3.
func (d *dumpReader) slow(data []byte) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for doc := 0; ; doc++ {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if !errors.Is(err, io.EOF) {
				d.p.errs = append(d.p.errs, YAMLError(d.p.file, data, err))
			}
			return
		}
		root := deref(&n)
		if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
			root = deref(root.Content[0])
		}
		d.document(doc, root, false)
	}
}

// document takes one document: a List (whose items, unless streamed, are
// read here), a list of manifests, or a manifest.
func (d *dumpReader) document(doc int, root *yaml.Node, streamed bool) {
	p := d.p
	if isNull(root) {
		return
	}
	prefix := docPrefix(doc)
	switch root.Kind {
	case yaml.SequenceNode:
		for i, e := range root.Content {
			d.object(deref(e), fmt.Sprintf("%s[%d]", prefix, i))
		}
	case yaml.MappingNode:
		items := lookupPath(root, []string{"items"})
		if items != nil && items.Kind == yaml.SequenceNode && lookupPath(root, []string{"kind"}) == nil {
			// (Not an object without its kind: a List that lost it.)
			p.errorf(root, prefix, "missing required key \"kind\": a List of objects, as kubectl prints it, has kind: List")
			return
		}
		if items != nil && isList(root) {
			switch {
			case items.Kind == yaml.SequenceNode && (!streamed || len(items.Content) > 0):
				// (fastYAML streams only the entries of a List whose
				// "- " lines are at the key's own column; an indented
				// List's entries are in the tree.)
				for i, e := range items.Content {
					d.object(deref(e), joinPath(prefix, fmt.Sprintf("items[%d]", i)))
				}
			case items.Kind != yaml.SequenceNode && !isNull(items):
				p.errorf(items, joinPath(prefix, "items"), "expected a list, found %s", kindName(items))
			}
			return
		}
		d.object(root, prefix)
	default:
		p.errorf(root, prefix, "expected a manifest or a List (what kubectl get -o yaml prints), found %s", kindName(root))
	}
}

// object checks one manifest of the dump and keeps it, taking its kind as
// a custom kind first when gcplay does not know it.
func (d *dumpReader) object(n *yaml.Node, path string) {
	d.implyKind(n, path)
	if m := d.p.manifest(n, path, d.reg); m != nil {
		d.share.object(m.Object)
		d.restore = append(d.restore, *m)
	}
}

// implyKind registers, for an apiVersion and kind gcplay does not serve, a
// custom kind with the scope the object implies, and reports an object
// whose scope disagrees with the first one's.
func (d *dumpReader) implyKind(n *yaml.Node, path string) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	av, k := lookupPath(n, []string{"apiVersion"}), lookupPath(n, []string{"kind"})
	if av == nil || k == nil || av.Kind != yaml.ScalarNode || k.Kind != yaml.ScalarNode {
		return // manifest() reports it
	}
	ns := lookupPath(n, []string{"metadata", "namespace"})
	namespaced := !isNull(ns)
	key := av.Value + " " + k.Value
	if ik := d.implied[key]; ik != nil {
		ik.count++
		if namespaced != ik.info.Namespaced() {
			has := "has no namespace"
			if namespaced {
				has = "has a namespace"
			}
			d.p.errorf(n, path, "this %s %s while the first one, taken as a custom %s kind, did not: the dump does not say whether %s is namespaced", k.Value, has, ik.info.Scope, k.Value)
		}
		return
	}
	if _, ok := d.reg.Lookup(av.Value, k.Value); ok || len(servedVersions(d.reg, k.Value)) > 0 || !isKindName(k.Value) {
		return
	}
	info := fakeapi.KindInfo{APIVersion: av.Value, Kind: k.Value, Scope: fakeapi.Cluster, Custom: true}
	if namespaced {
		info.Scope = fakeapi.Namespaced
	}
	if err := d.reg.Add(info); err != nil {
		d.p.errorf(n, path, "%s %s: %v", av.Value, k.Value, err)
		return
	}
	ik := &impliedKind{info: info, count: 1}
	d.implied[key] = ik
	d.order = append(d.order, ik)
	d.kinds = append(d.kinds, info)
}

// kindNotes says which kinds were taken as custom kinds, and why.
func (d *dumpReader) kindNotes() []string {
	var notes []string
	for _, ik := range d.order {
		has := "has no namespace"
		if ik.info.Namespaced() {
			has = "has a namespace"
		}
		what := "its object in the dump " + has
		if ik.count > 1 {
			what = fmt.Sprintf("each of its %d objects in the dump %s", ik.count, has)
		}
		notes = append(notes, fmt.Sprintf("%s (%s) is not built into gcplay: taken as a custom %s kind, since %s", ik.info.Kind, ik.info.APIVersion, ik.info.Scope, what))
	}
	return notes
}

// dumpName names the scenario after the file: "import-" and its base name.
func dumpName(filename string) string {
	base := strings.TrimSuffix(filepath.Base(filename), filepath.Ext(filename))
	base = strings.Trim(notNameRE.Get().ReplaceAllLiteralString(strings.ToLower(base), "-"), "-")
	if base == "" || filename == "-" {
		return "import"
	}
	return "import-" + base
}

// isList reports whether a mapping is a List: kind List, or any kind
// ending in List (kubectl get pods -o yaml prints kind: List; the API
// itself answers PodList).
func isList(n *yaml.Node) bool {
	k := lookupPath(n, []string{"kind"})
	return k != nil && k.Kind == yaml.ScalarNode && strings.HasSuffix(k.Value, "List")
}

// checkDumpIdentity reports two objects with one name or one UID, and
// resolves ownerReferences written without a uid to the dump's objects.
func (p *parser) checkDumpIdentity(objs []Manifest, reg *fakeapi.Registry) {
	byName, byUID, unique := identitiesApart(objs, reg)
	if !unique {
		byName, byUID = p.identities(objs, reg)
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
			owner := byName[identityKey{info.Kind, ns, r.Name}]
			if owner == nil || owner.Object.Metadata.UID == "" {
				p.errorf(&yaml.Node{Line: m.Line}, fmt.Sprintf("%s.metadata.ownerReferences[%d]", m.Path, j),
					"%s has no uid and the dump holds no %s to take it from; give the uid", fakeapi.RefString(r.Kind, ns, r.Name), fakeapi.RefString(r.Kind, ns, r.Name))
				continue
			}
			r.UID = owner.Object.Metadata.UID
		}
	}
}

// identityKey is an object's name as the apiserver knows it: its kind,
// namespace and name.
type identityKey struct{ kind, ns, name string }

// identities indexes a dump's objects by name and by UID, reporting an
// object without a name, or with the name or the UID of an object before
// it (and leaving it out of the indexes).
func (p *parser) identities(objs []Manifest, reg *fakeapi.Registry) (map[identityKey]*Manifest, map[string]*Manifest) {
	byName := make(map[identityKey]*Manifest, len(objs))
	byUID := make(map[string]*Manifest, len(objs))
	var kinds fakeapi.KindCache
	for i := range objs {
		m := &objs[i]
		o := m.Object
		if o.Metadata.Name == "" {
			p.errorf(&yaml.Node{Line: m.Line}, m.Path+".metadata", "missing name: an object of a dump has one (generateName alone names no object yet)")
			continue
		}
		info, _ := kinds.Lookup(reg, o.APIVersion, o.Kind)
		k := identityKey{info.Kind, o.Metadata.Namespace, o.Metadata.Name}
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
	return byName, byUID
}

// identitiesApartMin is the smallest dump whose indexes by name and by
// UID identitiesApart builds each on a core of its own.
var identitiesApartMin = 1 << 12

// identitiesApart builds identities' two indexes of a large dump, each on
// a core of its own, for the common case: every object named, no name
// or UID twice, where identities reports nothing and leaves nothing out,
// so that the indexes are the ones it builds. unique is false otherwise
// (or for a small dump, or on one core), and identities reads the dump
// from its start to report what it finds.
func identitiesApart(objs []Manifest, reg *fakeapi.Registry) (byName map[identityKey]*Manifest, byUID map[string]*Manifest, unique bool) {
	if len(objs) < identitiesApartMin || runtime.GOMAXPROCS(0) < 2 {
		return nil, nil, false
	}
	uidsUnique := make(chan bool, 1)
	go func() {
		byUID = make(map[string]*Manifest, len(objs))
		for i := range objs {
			if u := objs[i].Object.Metadata.UID; u != "" {
				if byUID[u] != nil {
					uidsUnique <- false
					return
				}
				byUID[u] = &objs[i]
			}
		}
		uidsUnique <- true
	}()
	byName = make(map[identityKey]*Manifest, len(objs))
	unique = true
	var kinds fakeapi.KindCache
	for i := range objs {
		o := objs[i].Object
		info, _ := kinds.Lookup(reg, o.APIVersion, o.Kind)
		k := identityKey{info.Kind, o.Metadata.Namespace, o.Metadata.Name}
		if o.Metadata.Name == "" || byName[k] != nil {
			unique = false
			break
		}
		byName[k] = &objs[i]
	}
	unique = <-uidsUnique && unique
	return byName, byUID, unique
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
	var kinds fakeapi.KindCache
	for _, m := range objs {
		info, _ := kinds.Lookup(reg, m.Object.APIVersion, m.Object.Kind)
		if ns := m.Object.Metadata.Namespace; info.Namespaced() && !have[ns] {
			have[ns] = true
			added = append(added, ns)
			out = append(out, Manifest{Line: m.Line, Path: m.Path, Object: &fakeapi.Object{APIVersion: "v1", Kind: "Namespace",
				Metadata: fakeapi.ObjectMeta{Name: ns}, Fields: fakeapi.FieldsOf(map[string]any{"spec": map[string]any{"finalizers": []any{"kubernetes"}}, "status": map[string]any{"phase": "Active"}})}})
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
