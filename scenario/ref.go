package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gcplay/gcplay/fakeapi"
)

// Ref is a reference to an object as scenario steps write it: Kind/name,
// Kind/namespace/name, or uid:<uid>. After Parse, Kind is the canonical
// kind name (short names and plurals resolved), APIVersion its preferred
// served version, and Namespace is filled in ("default" for namespaced
// kinds written as Kind/name, "" for cluster-scoped kinds).
type Ref struct {
	fakeapi.Ref
	// UID is set for the uid:<uid> form, and then nothing else is.
	UID string
	// NamespaceGiven is true when the reference was written with three
	// parts.
	NamespaceGiven bool
	// Text is the reference as written in the file.
	Text string
}

// String returns the reference in scenario form: "uid:<uid>", "Kind/name"
// or "Kind/namespace/name", with the canonical kind name.
func (r Ref) String() string {
	if r.UID != "" {
		return "uid:" + r.UID
	}
	if r.Name == "" {
		return r.Kind
	}
	return fakeapi.RefString(r.Kind, r.Namespace, r.Name)
}

// ParseRef parses the syntax of a reference, without resolving its kind:
// Kind keeps the spelling of the file. It accepts Kind/name,
// Kind/namespace/name and uid:<uid>.
func ParseRef(s string) (Ref, error) {
	r := Ref{Text: s}
	if uid, ok := strings.CutPrefix(s, "uid:"); ok {
		if uid == "" || strings.ContainsAny(uid, " \t\n/") {
			return Ref{}, fmt.Errorf("invalid reference %q: uid:<uid> needs a uid without spaces or slashes", s)
		}
		r.UID = uid
		return r, nil
	}
	if strings.ContainsAny(s, " \t\n") {
		return Ref{}, fmt.Errorf("invalid reference %q: write Kind/name, Kind/namespace/name or uid:<uid>", s)
	}
	parts := strings.Split(s, "/")
	for _, p := range parts {
		if p == "" {
			return Ref{}, fmt.Errorf("invalid reference %q: write Kind/name, Kind/namespace/name or uid:<uid>", s)
		}
	}
	switch len(parts) {
	case 2:
		r.Kind, r.Name = parts[0], parts[1]
	case 3:
		r.Kind, r.Namespace, r.Name = parts[0], parts[1], parts[2]
		r.NamespaceGiven = true
	default:
		return Ref{}, fmt.Errorf("invalid reference %q: write Kind/name, Kind/namespace/name or uid:<uid>", s)
	}
	return r, nil
}

// ResolveRef parses a reference and resolves its kind with reg (kubectl
// short names and plurals, case-insensitively), filling in the canonical
// kind, its preferred apiVersion and the namespace.
func ResolveRef(reg *fakeapi.Registry, s string) (Ref, error) {
	r, err := ParseRef(s)
	if err != nil || r.UID != "" {
		return r, err
	}
	info, err := kindByName(reg, r.Kind)
	if err != nil {
		return Ref{}, err
	}
	r.Kind, r.APIVersion = info.Kind, info.APIVersion
	switch {
	case !info.Namespaced() && r.NamespaceGiven:
		return Ref{}, fmt.Errorf("invalid reference %q: %s is cluster-scoped, write %s/%s", s, info.Kind, info.Kind, r.Name)
	case !info.Namespaced():
		r.Namespace = ""
	case !r.NamespaceGiven:
		r.Namespace = "default"
	}
	return r, nil
}

// ResolveOwnerRef resolves a reference to an owner as expect.ownerReferences
// writes it. An ownerReference may name a kind no API serves (the apiserver
// accepts it, R3, and manifests may write one), and owners are compared by
// kind and name, so a kind gcplay does not know is kept as written, to be
// compared exactly with the reference's kind; its scope is unknown, so only
// a namespace written in the reference is checked. Known kinds resolve as
// in ResolveRef; an ambiguous short name is still an error.
func ResolveOwnerRef(reg *fakeapi.Registry, s string) (Ref, error) {
	r, err := ResolveRef(reg, s)
	if err == nil {
		return r, nil
	}
	p, perr := ParseRef(s)
	if perr != nil || slices.Contains(reg.Names(), strings.ToLower(p.Kind)) {
		return Ref{}, err // a known name: ambiguous, or written with the wrong scope
	}
	return p, nil
}

// kindByName resolves a kind name, plural or short name, with a
// suggestion when it is unknown.
func kindByName(reg *fakeapi.Registry, name string) (fakeapi.KindInfo, error) {
	info, err := reg.ByKind(name)
	if err == nil || slices.Contains(reg.Names(), strings.ToLower(name)) {
		return info, err // found, or ambiguous
	}
	var kinds []string
	for _, k := range reg.Kinds() {
		kinds = append(kinds, k.Kind)
	}
	return fakeapi.KindInfo{}, fmt.Errorf("unknown kind %q%s: not built in and not declared under kinds", name, suggest(name, kinds))
}

// Matches reports whether the reference names the object or identity
// (kind, namespace, name, uid). A Kind/name reference matches on the
// canonical kind, namespace and name; uid:<uid> on the UID.
func (r Ref) Matches(kind, namespace, name, uid string) bool {
	if r.UID != "" {
		return r.UID == uid
	}
	return r.Kind == kind && r.Namespace == namespace && r.Name == name
}
