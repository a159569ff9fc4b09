package scenario

import (
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/fakeapi"
)

// metadataKeys are the ObjectMeta fields gcplay models, by JSON name.
var metadataKeys = []string{"name", "generateName", "namespace", "uid", "resourceVersion", "generation",
	"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations",
	"ownerReferences", "finalizers"}

// dumpMetadataKeys adds the server-only fields kubectl prints, which an
// import tolerates and drops.
var dumpMetadataKeys = append(slices.Clip(metadataKeys), "managedFields", "selfLink")

var ownerRefKeys = []string{"apiVersion", "kind", "name", "uid", "controller", "blockOwnerDeletion"}

// manifest validates one object manifest and converts it to a
// fakeapi.Object, with metadata.namespace defaulted to "default" for
// namespaced kinds. It returns nil when the manifest is invalid.
func (p *parser) manifest(n *yaml.Node, path string, reg *fakeapi.Registry) *Manifest {
	n = deref(n)
	if n == nil || n.Kind != yaml.MappingNode {
		p.errorf(n, path, "expected a manifest (a mapping with apiVersion, kind and metadata), found %s", kindName(n))
		return nil
	}
	before := len(p.errs)
	top := map[string]pair{}
	for _, e := range p.pairs(n, path, 0) {
		top[e.Key] = e
	}
	for _, k := range []string{"apiVersion", "kind", "metadata"} {
		if _, ok := top[k]; !ok {
			p.errorf(n, path, "missing required key %q", k)
		}
	}
	var apiVersion, kind string
	if e, ok := top["apiVersion"]; ok {
		apiVersion, _ = p.str(e.Value, path+".apiVersion")
	}
	if e, ok := top["kind"]; ok {
		kind, _ = p.str(e.Value, path+".kind")
	}
	info, known := p.servedKind(reg, apiVersion, kind, top, path)
	if e, ok := top["metadata"]; ok {
		p.metadata(e.Value, path+".metadata", reg, info, known)
	}
	if known {
		p.checkTypedFields(n, path, info)
	}
	if len(p.errs) > before {
		return nil
	}
	obj, ok := p.object(n, path)
	if !ok {
		return nil
	}
	if info.Namespaced() && obj.Metadata.Namespace == "" {
		obj.Metadata.Namespace = "default"
	}
	return &Manifest{Object: obj, Line: n.Line, Path: path}
}

// servedKind checks that apiVersion serves kind.
func (p *parser) servedKind(reg *fakeapi.Registry, apiVersion, kind string, top map[string]pair, path string) (fakeapi.KindInfo, bool) {
	if apiVersion == "" || kind == "" {
		return fakeapi.KindInfo{}, false
	}
	if info, ok := reg.Lookup(apiVersion, kind); ok {
		return info, true
	}
	if served := servedVersions(reg, kind); len(served) > 0 {
		p.errorf(deref(top["apiVersion"].Value), path+".apiVersion", "apiVersion %q does not serve %s (served: %s)", apiVersion, kind, strings.Join(served, ", "))
		return fakeapi.KindInfo{}, false
	}
	kn := deref(top["kind"].Value)
	if info, err := reg.ByKind(kind); err == nil {
		p.errorf(kn, path+".kind", "kind %q: a manifest names the kind exactly, %q", kind, info.Kind)
		return fakeapi.KindInfo{}, false
	}
	_, err := kindByName(reg, kind)
	p.errorf(kn, path+".kind", "%v", err)
	return fakeapi.KindInfo{}, false
}

// metadata checks the metadata mapping field by field, so that every
// problem has its own line.
func (p *parser) metadata(n *yaml.Node, path string, reg *fakeapi.Registry, info fakeapi.KindInfo, known bool) {
	keys := metadataKeys
	if p.dump {
		keys = dumpMetadataKeys
	}
	f, ok := p.fields(n, path, keys)
	if !ok {
		return
	}
	strField := func(k string) (string, *yaml.Node) {
		e, ok := f[k]
		if !ok || isNull(e.Value) {
			return "", nil
		}
		s, _ := p.strAt(e.Value, path, k)
		return s, deref(e.Value)
	}
	name, _ := strField("name")
	gen, _ := strField("generateName")
	ns, nsNode := strField("namespace")
	strField("uid")
	strField("resourceVersion")
	if name == "" && gen == "" {
		p.errorf(deref(n), path, "missing name (or generateName)")
	}
	if ns != "" && known && !info.Namespaced() {
		p.errorf(nsNode, path+".namespace", "%s is cluster-scoped: remove namespace", info.Kind)
	}
	for _, k := range []string{"generation", "deletionGracePeriodSeconds"} {
		if e, ok := f[k]; ok && !isNull(e.Value) {
			p.integer(e.Value, path+"."+k)
		}
	}
	for _, k := range []string{"creationTimestamp", "deletionTimestamp"} {
		if e, ok := f[k]; ok && !isNull(e.Value) {
			v := deref(e.Value)
			if v.Kind != yaml.ScalarNode {
				p.errorf(v, path+"."+k, "expected an RFC 3339 time, found %s", kindName(v))
			} else if _, err := time.Parse(time.RFC3339, v.Value); err != nil {
				p.errorf(v, path+"."+k, "expected an RFC 3339 time such as 2026-01-01T00:00:00Z, found %q", v.Value)
			}
		}
	}
	for _, k := range []string{"labels", "annotations"} {
		e, ok := f[k]
		if !ok || isNull(e.Value) {
			continue
		}
		v := deref(e.Value)
		if v.Kind != yaml.MappingNode {
			p.errorf(v, path+"."+k, "expected a mapping of strings, found %s", kindName(v))
			continue
		}
		at := path + "." + k
		for _, kv := range p.pairs(v, at, 1) {
			if !isNull(kv.Value) {
				p.strAt(kv.Value, at, kv.Key)
			}
		}
	}
	if e, ok := f["finalizers"]; ok && !isNull(e.Value) {
		p.strList(e.Value, path+".finalizers")
	}
	if e, ok := f["ownerReferences"]; ok && !isNull(e.Value) {
		v := deref(e.Value)
		if v.Kind != yaml.SequenceNode {
			p.errorf(v, path+".ownerReferences", "expected a list, found %s", kindName(v))
			return
		}
		for i, r := range v.Content {
			p.ownerReference(deref(r), indexPath(path+".ownerReferences", i), reg)
		}
	}
}

func (p *parser) ownerReference(n *yaml.Node, path string, reg *fakeapi.Registry) {
	f, ok := p.fields(n, path, ownerRefKeys)
	if !ok {
		return
	}
	vals := map[string]string{}
	for _, k := range []string{"apiVersion", "kind", "name", "uid"} {
		if e, ok := f[k]; ok && !isNull(e.Value) {
			vals[k], _ = p.strAt(e.Value, path, k)
		}
	}
	for _, k := range []string{"controller", "blockOwnerDeletion"} {
		if e, ok := f[k]; ok && !isNull(e.Value) {
			p.booleanAt(e.Value, path, k)
		}
	}
	if vals["uid"] != "" {
		return // given explicitly: the apiserver validates the rest
	}
	var missing []string
	for _, k := range []string{"apiVersion", "kind", "name"} {
		if vals[k] == "" {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		p.errorf(n, path, "missing %s: an ownerReference without uid needs apiVersion, kind and name to find its owner", strings.Join(missing, ", "))
		return
	}
	if _, ok := reg.Lookup(vals["apiVersion"], vals["kind"]); !ok {
		at := deref(f["kind"].Value)
		served := servedVersions(reg, vals["kind"])
		if len(served) > 0 {
			at = deref(f["apiVersion"].Value)
			p.errorf(at, path, "apiVersion %q does not serve %s (served: %s), so no owner can be found for it; fix it or give a uid", vals["apiVersion"], vals["kind"], strings.Join(served, ", "))
			return
		}
		p.errorf(at, path, "unknown owner kind %q: not built in and not declared under kinds; declare it or give a uid", vals["kind"])
	}
}

func servedVersions(reg *fakeapi.Registry, kind string) []string {
	var out []string
	for _, k := range reg.Kinds() {
		if k.Kind == kind && !slices.Contains(out, k.APIVersion) {
			out = append(out, k.APIVersion)
		}
	}
	return out
}

// object converts a checked manifest to the object JSON would decode from
// the same document: metadata into its fields, every other top-level key
// into Fields with JSON's types (numbers are float64). Server-only
// metadata a dump carries (managedFields, selfLink) is dropped.
func (p *parser) object(n *yaml.Node, path string) (*fakeapi.Object, bool) {
	obj := &fakeapi.Object{}
	p.jsonNumbers = true
	defer func() { p.jsonNumbers = false }()
	ok := true
	for _, e := range p.pairs(n, path, 0) {
		v := deref(e.Value)
		switch e.Key {
		case "apiVersion":
			obj.APIVersion = v.Value
		case "kind":
			obj.Kind = v.Value
		case "metadata":
			ok = p.objectMeta(v, path+".metadata", &obj.Metadata) && ok
		default:
			val, good := p.value(v, joinPath(path, e.Key), 1)
			ok = ok && good
			obj.Fields.Set(e.Key, val)
		}
	}
	return obj, ok
}

// objectMeta reads metadata that metadata() has checked.
func (p *parser) objectMeta(n *yaml.Node, path string, m *fakeapi.ObjectMeta) bool {
	if isNull(n) {
		return true
	}
	ok := true
	for _, e := range p.pairs(n, path, 1) {
		v := deref(e.Value)
		if isNull(v) {
			continue
		}
		switch e.Key {
		case "name":
			m.Name = v.Value
		case "generateName":
			m.GenerateName = v.Value
		case "namespace":
			m.Namespace = v.Value
		case "uid":
			m.UID = v.Value
		case "resourceVersion":
			m.ResourceVersion = v.Value
		case "generation":
			m.Generation, _ = p.integer(v, path+".generation")
		case "deletionGracePeriodSeconds":
			g, _ := p.integer(v, path+".deletionGracePeriodSeconds")
			m.DeletionGracePeriodSeconds = &g
		case "creationTimestamp", "deletionTimestamp":
			t, err := time.Parse(time.RFC3339, v.Value)
			if err != nil {
				ok = false
				continue
			}
			ts := &fakeapi.Time{Time: t}
			if e.Key == "creationTimestamp" {
				m.CreationTimestamp = ts
			} else {
				m.DeletionTimestamp = ts
			}
		case "labels", "annotations":
			out := map[string]string{}
			for _, kv := range p.pairs(v, path+"."+e.Key, 2) {
				out[kv.Key] = deref(kv.Value).Value // null reads as "", as in JSON
				if isNull(kv.Value) {
					out[kv.Key] = ""
				}
			}
			if e.Key == "labels" {
				m.Labels = out
			} else {
				m.Annotations = out
			}
		case "finalizers":
			for _, f := range v.Content {
				m.Finalizers = append(m.Finalizers, deref(f).Value)
			}
		case "ownerReferences":
			for i, r := range v.Content {
				var ref fakeapi.OwnerReference
				for _, kv := range p.pairs(r, indexPath(path+".ownerReferences", i), 2) {
					kvv := deref(kv.Value)
					if isNull(kvv) {
						continue
					}
					switch kv.Key {
					case "apiVersion":
						ref.APIVersion = kvv.Value
					case "kind":
						ref.Kind = kvv.Value
					case "name":
						ref.Name = kvv.Value
					case "uid":
						ref.UID = kvv.Value
					case "controller":
						b, _ := p.boolean(kvv, "")
						ref.Controller = &b
					case "blockOwnerDeletion":
						b, _ := p.boolean(kvv, "")
						ref.BlockOwnerDeletion = &b
					}
				}
				m.OwnerReferences = append(m.OwnerReferences, ref)
			}
		}
	}
	return ok
}
