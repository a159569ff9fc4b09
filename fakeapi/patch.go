package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// Patch applies a patch to the object at ref and returns the result read
// through ref.APIVersion.
//
// The patch is applied to the object's JSON form, then the result goes
// through the same update as Update (R4, R9, R10): a metadata.resourceVersion
// in the patch is an optimistic lock (409 Conflict when stale), finalizers
// set to null on a deleting object remove it (R9), a metadata.uid that
// differs from the stored one is 422 (uid is immutable; this is what the
// garbage collector's patches rely on, R54), and a patch that changes
// nothing writes nothing.
//
// MergePatch is RFC 7386. StrategicMergePatch is modelled for what
// metadata needs (R54, R55): ownerReferences merge by uid, where
// {"$patch":"delete","uid":U} removes the entry (an absent entry is a
// silent success), other entries merge field by field into the entry with
// the same uid or are added, and items named in the patch are ordered as
// the apiserver orders them; finalizers merge as a set, with
// "$deleteFromPrimitiveList/finalizers" removing names. Every other field
// behaves as in a merge patch. Custom kinds answer a strategic merge patch
// with 415 UnsupportedMediaType (R53).
func (s *Store) Patch(client string, ref Ref, pt PatchType, body []byte) (*Object, error) {
	req := Request{Verb: "patch", Client: client, Ref: ref, Code: 200, Detail: describePatch(pt, body)}
	out, se := s.patch(&req, ref, pt, body)
	s.finish(&req, se)
	if se != nil {
		return nil, se
	}
	return out, nil
}

// describePatch is the one-line Detail of a patch request: its type and
// compacted body.
func describePatch(pt PatchType, body []byte) string {
	kind := string(pt)
	switch pt {
	case MergePatch:
		kind = "merge"
	case StrategicMergePatch:
		kind = "strategic"
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, body); err != nil {
		return kind + " " + strings.Join(strings.Fields(string(body)), " ")
	}
	return kind + " " + buf.String()
}

func (s *Store) patch(req *Request, ref Ref, pt PatchType, body []byte) (*Object, *StatusError) {
	info, se := s.resolve(ref.APIVersion, ref.Kind)
	if se != nil {
		return nil, se
	}
	if pt != MergePatch && (pt != StrategicMergePatch || info.Custom) {
		return nil, errUnsupportedPatch(info, pt)
	}
	ns := ref.Namespace
	if !info.Namespaced() {
		ns = ""
	}
	if se := s.takeFault(req, info, ns, ref.Name); se != nil {
		return nil, se
	}
	cur, se := s.lookupForRequest(info, ns, ref.Name)
	if se != nil {
		return nil, se
	}
	doc, err := objectToMap(view(cur, ref.APIVersion))
	if err != nil {
		return nil, NewUnknownError("%v", err)
	}

	var patched any
	switch pt {
	case MergePatch:
		var p any
		if err := json.Unmarshal(body, &p); err != nil || p == nil {
			return nil, NewError(ReasonBadRequest, "Invalid JSON Patch")
		}
		patched = mergePatchValue(doc, p)
	case StrategicMergePatch:
		var p map[string]any
		if err := json.Unmarshal(body, &p); err != nil {
			return nil, NewError(ReasonBadRequest, "%v", err)
		}
		out, se := strategicMergeObject(doc, p)
		if se != nil {
			return nil, se
		}
		patched = out
	}

	next, err := mapToObject(patched)
	if err != nil {
		js, _ := json.Marshal(patched)
		return nil, newInvalid("", "", []fieldError{invalidField("patch", goString(string(js)), err.Error())})
	}
	// checkName: the patched object must still be the one on the URL.
	if next.Metadata.Name != ref.Name {
		return nil, NewError(ReasonBadRequest, "the name of the object (%s) does not match the name on the URL (%s)", next.Metadata.Name, ref.Name)
	}
	if info.Namespaced() {
		if next.Metadata.Namespace != "" && next.Metadata.Namespace != ns {
			return nil, NewError(ReasonBadRequest, "the namespace of the object (%s) does not match the namespace on the URL (%s)", next.Metadata.Namespace, ns)
		}
		next.Metadata.Namespace = ns
	} else {
		next.Metadata.Namespace = ""
	}
	out, se := s.applyUpdate(info, cur, next)
	if se != nil {
		return nil, se
	}
	return view(out, ref.APIVersion), nil
}

// objectToMap returns the JSON form of an object as decoded JSON.
func objectToMap(o *Object) (map[string]any, error) {
	b, err := o.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// mapToObject decodes a patched JSON document back into an object.
// Unknown metadata fields are dropped, as the apiserver drops unknown
// fields by default; fields of the wrong type are an error.
func mapToObject(doc any) (*Object, error) {
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the patched document is not a JSON object")
	}
	o := &Object{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		switch k {
		case "apiVersion", "kind":
			str, ok := v.(string)
			if v != nil && !ok {
				return nil, fmt.Errorf("%s must be a string", k)
			}
			if k == "apiVersion" {
				o.APIVersion = str
			} else {
				o.Kind = str
			}
		case "metadata":
			if v == nil {
				continue
			}
			b, err := json.Marshal(v)
			if err != nil {
				return nil, err
			}
			if err := json.Unmarshal(b, &o.Metadata); err != nil {
				return nil, err
			}
		default:
			o.Fields.Set(k, v)
		}
	}
	return o, nil
}

// mergePatchValue applies an RFC 7386 JSON merge patch to target: objects
// merge key by key, null removes a key, anything else replaces. Neither
// argument is modified.
func mergePatchValue(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	out := map[string]any{}
	if t, ok := target.(map[string]any); ok {
		maps.Copy(out, t)
	}
	for _, k := range slices.Sorted(maps.Keys(p)) {
		if p[k] == nil {
			delete(out, k)
			continue
		}
		out[k] = mergePatchValue(out[k], p[k])
	}
	return out
}

// strategicMergeObject applies a strategic merge patch to an object's
// JSON form. Only metadata has strategic semantics here; other fields
// merge as in RFC 7386.
func strategicMergeObject(doc, patch map[string]any) (map[string]any, *StatusError) {
	out := maps.Clone(doc)
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		v := patch[k]
		if strings.HasPrefix(k, "$") {
			return nil, errUnmodelledDirective(k)
		}
		if v == nil {
			delete(out, k)
			continue
		}
		pm, isMap := v.(map[string]any)
		om, origMap := out[k].(map[string]any)
		if k == "metadata" && isMap && origMap {
			merged, se := strategicMergeMetadata(om, pm)
			if se != nil {
				return nil, se
			}
			out[k] = merged
			continue
		}
		out[k] = mergePatchValue(out[k], v)
	}
	return out, nil
}

// errUnsupportedPatch is the 415 of a patch type the kind does not take
// (a strategic merge patch to a custom kind, R53) or gcplay does not model
// (JSON patch, server-side apply).
func errUnsupportedPatch(info KindInfo, pt PatchType) *StatusError {
	// The installer's supportedTypes, in its order (the CBOR apply type is
	// behind a feature gate that v1.34 leaves off); the custom resource
	// handler's lack the strategic type.
	accepted := []string{"application/json-patch+json", "application/merge-patch+json", string(StrategicMergePatch), "application/apply-patch+yaml"}
	if info.Custom {
		accepted = slices.DeleteFunc(accepted, func(t string) bool { return t == string(StrategicMergePatch) })
	}
	if slices.Contains(accepted, string(pt)) {
		return NewError(ReasonUnsupportedMediaType, "gcplay does not model %s patches", pt)
	}
	return NewError(ReasonUnsupportedMediaType,
		"the body of the request was in an unknown format - accepted media types include: %s", strings.Join(accepted, ", "))
}

func errUnmodelledDirective(k string) *StatusError {
	return NewError(ReasonBadRequest, "gcplay does not model the strategic merge patch directive %s", k)
}

const deleteFinalizersDirective = "$deleteFromPrimitiveList/finalizers"

// strategicMergeMetadata merges a metadata patch: ownerReferences by uid
// (patchMergeKey), finalizers as a set (patchStrategy merge), the rest as
// a JSON merge patch.
func strategicMergeMetadata(orig, patch map[string]any) (map[string]any, *StatusError) {
	out := maps.Clone(orig)
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		v := patch[k]
		switch {
		case k == deleteFinalizersDirective:
			if cur, ok := out["finalizers"].([]any); ok {
				out["finalizers"] = deleteScalars(cur, v)
			}
			continue
		case strings.HasPrefix(k, "$"):
			return nil, errUnmodelledDirective(k)
		case v == nil:
			delete(out, k)
			continue
		}
		cur, curIsList := out[k].([]any)
		list, isList := v.([]any)
		switch {
		case k == "ownerReferences" && curIsList && isList:
			merged, se := mergeOwnerReferences(cur, list)
			if se != nil {
				return nil, se
			}
			out[k] = merged
		case k == "ownerReferences" && isList && out[k] == nil:
			// Nothing to merge into: mergeMap takes the patch's list less
			// every entry holding a $patch directive, whatever the
			// directive (removeDirectives).
			var kept []any
			for _, e := range list {
				if m, ok := e.(map[string]any); ok {
					if _, directive := m["$patch"]; directive {
						continue
					}
				}
				kept = append(kept, e)
			}
			out[k] = kept
		case k == "finalizers" && curIsList && isList && allStrings(cur) && allStrings(list):
			out[k] = mergeScalars(cur, list)
		default:
			out[k] = mergePatchValue(out[k], v)
		}
	}
	return out, nil
}

func allStrings(l []any) bool {
	for _, e := range l {
		if _, ok := e.(string); !ok {
			return false
		}
	}
	return true
}

// deleteScalars removes every string named in del from list.
func deleteScalars(list []any, del any) []any {
	names, _ := del.([]any)
	out := make([]any, 0, len(list))
	for _, e := range list {
		if slices.ContainsFunc(names, func(d any) bool { s, ok := d.(string); return ok && s == e }) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// mergeScalars merges a list of strings with merge strategy: the union,
// patch items in patch order and server-only items in server order,
// interleaved as the apiserver's strategic merge does.
func mergeScalars(orig, patch []any) []any {
	var merged []any
	for _, e := range append(slices.Clone(orig), patch...) {
		if !slices.Contains(merged, e) {
			merged = append(merged, e)
		}
	}
	key := func(e any) any { return e }
	return orderMerged(merged, patch, orig, key)
}

// mergeOwnerReferences merges an ownerReferences patch list into the
// stored list, keyed by uid, as strategicpatch's mergeSlice does for a
// list with a merge key: every element must be of one type
// (sliceElementType), then the $patch directives are applied
// (mergeSliceWithSpecialElements), then the other entries merged
// (mergeSliceWithoutSpecialElements). Its errors are plain Go errors that
// the patch handler passes through: a 500 with no reason.
func mergeOwnerReferences(orig, patch []any) ([]any, *StatusError) {
	// The stored list is always of maps (the object decoded from JSON).
	original := make([]any, 0, len(orig))
	for _, e := range orig {
		m := e.(map[string]any)
		uid, ok := m["uid"]
		if !ok {
			return nil, errNoMergeKey(m)
		}
		if !isScalar(uid) {
			return nil, errBadMergeKey(m)
		}
		original = append(original, maps.Clone(m))
	}
	for _, e := range patch {
		if _, ok := e.(map[string]any); !ok {
			return nil, NewUnknownError("list element types are not identical: %v", fmt.Sprint([][]any{orig, patch}))
		}
	}
	var rest []any
	replace := false
	for _, e := range patch {
		m := e.(map[string]any)
		d, directive := m["$patch"]
		if !directive {
			rest = append(rest, m)
			continue
		}
		switch d {
		case "delete":
			uid, ok := m["uid"]
			if !ok {
				return nil, errNoMergeKey(m)
			}
			if !isScalar(uid) {
				return nil, errBadMergeKey(m)
			}
			original = slices.DeleteFunc(original, func(o any) bool { return o.(map[string]any)["uid"] == uid })
		case "replace":
			replace = true
		case "merge":
			return nil, NewUnknownError("merging lists cannot yet be specified in the patch")
		default:
			// mergepatch.ErrBadPatchType, which formats the directive with %s.
			return nil, NewUnknownError("unknown patch type: %s in map: %v", d, m)
		}
	}
	if replace {
		return rest, nil
	}
	merged := slices.Clone(original)
	for _, e := range rest {
		m := e.(map[string]any)
		uid, ok := m["uid"]
		if !ok {
			return nil, errNoMergeKey(m)
		}
		if !isScalar(uid) {
			return nil, errBadMergeKey(m)
		}
		i := slices.IndexFunc(merged, func(o any) bool { return o.(map[string]any)["uid"] == uid })
		if i < 0 {
			merged = append(merged, m)
			continue
		}
		merged[i] = mergeEntry(merged[i].(map[string]any), m)
	}
	key := func(e any) any { return e.(map[string]any)["uid"] }
	return orderMerged(merged, rest, original, key), nil
}

// isScalar reports whether a decoded JSON value can be compared with ==.
func isScalar(v any) bool {
	switch v.(type) {
	case nil, string, float64, bool:
		return true
	default:
		return false
	}
}

func errBadMergeKey(m map[string]any) *StatusError {
	return NewError(ReasonBadRequest, "map: %v has a merge key uid that is not a string", m)
}

// errNoMergeKey is mergepatch.ErrNoMergeKey, a plain error: a 500 with no
// reason.
func errNoMergeKey(m map[string]any) *StatusError {
	return NewUnknownError("map: %v does not contain declared merge key: uid", m)
}

// mergeEntry merges a patch entry into a list entry: null removes a
// field, other values replace it.
func mergeEntry(orig, patch map[string]any) map[string]any {
	out := maps.Clone(orig)
	for _, k := range slices.Sorted(maps.Keys(patch)) {
		if patch[k] == nil {
			delete(out, k)
			continue
		}
		out[k] = mergePatchValue(out[k], patch[k])
	}
	return out
}

// orderMerged gives a merged list the apiserver's order
// (normalizeElementOrder): items named by the patch in patch order,
// server-only items in server order, and the two interleaved so that two
// items both known to the server keep their server order, while an item
// new to the server goes before the server-only items still to place.
func orderMerged(merged, patch, server []any, key func(any) any) []any {
	index := func(l []any, e any) int {
		k := key(e)
		return slices.IndexFunc(l, func(x any) bool { return key(x) == k })
	}
	var patchItems, serverOnly []any
	for _, e := range merged {
		if index(patch, e) >= 0 {
			patchItems = append(patchItems, e)
		} else {
			serverOnly = append(serverOnly, e)
		}
	}
	sort.SliceStable(patchItems, func(i, j int) bool { return index(patch, patchItems[i]) < index(patch, patchItems[j]) })
	sort.SliceStable(serverOnly, func(i, j int) bool { return index(server, serverOnly[i]) < index(server, serverOnly[j]) })
	out := make([]any, 0, len(merged))
	i, j := 0, 0
	for i < len(serverOnly) || j < len(patchItems) {
		switch {
		case j >= len(patchItems):
			out = append(out, serverOnly[i])
			i++
		case i >= len(serverOnly):
			out = append(out, patchItems[j])
			j++
		default:
			li, ri := index(server, serverOnly[i]), index(server, patchItems[j])
			if li >= 0 && ri >= 0 && li < ri {
				out = append(out, serverOnly[i])
				i++
			} else {
				out = append(out, patchItems[j])
				j++
			}
		}
	}
	return out
}
