package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/labelsel"
)

// This file holds what the ReplicaSet and Deployment controllers share:
// reading typed values out of an object's JSON fields, label selectors,
// and the controller-reference manager that claims objects for a
// controller (upstream's BaseControllerRefManager in
// pkg/controller/controller_ref_manager.go): adopt matching orphans,
// release owned objects that stopped matching, ignore objects another
// controller owns.

// nested walks maps from v along path.
func nested(v any, path ...string) (any, bool) {
	if f, ok := v.(fakeapi.Fields); ok { // an object's top level
		return f.Nested(path...)
	}
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[p]; !ok {
			return nil, false
		}
	}
	return v, true
}

func nestedMap(v any, path ...string) map[string]any {
	x, _ := nested(v, path...)
	m, _ := x.(map[string]any)
	return m
}

func nestedString(v any, path ...string) string {
	x, _ := nested(v, path...)
	s, _ := x.(string)
	return s
}

// asInt reads a JSON number (float64 as decoded, or a Go integer).
func asInt(v any) (int64, bool) {
	switch n := v.(type) {
	case float64:
		return int64(n), n == float64(int64(n))
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

func nestedInt(v any, path ...string) (int64, bool) {
	x, ok := nested(v, path...)
	if !ok {
		return 0, false
	}
	return asInt(x)
}

func nestedBool(v any, path ...string) bool {
	x, _ := nested(v, path...)
	b, _ := x.(bool)
	return b
}

// stringMap converts a decoded JSON object of strings (labels).
func stringMap(v any) map[string]string {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, x := range m {
		if s, ok := x.(string); ok {
			out[k] = s
		}
	}
	return out
}

// toJSONValue returns v as encoding/json decodes it (the fake apiserver's
// stored form), so it compares equal to what the store holds. A value
// that is already such a tree is copied directly (copyJSONTree).
func toJSONValue(v any) any {
	if out, ok := copyJSONTree(v); ok {
		return out
	}
	return jsonRoundTrip(v)
}

// jsonRoundTrip is encoding/json's Marshal then Unmarshal into an any: the
// stored form of any value, and what the direct forms must equal.
func jsonRoundTrip(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil
	}
	return out
}

// fromJSONValue decodes a stored JSON value into a typed Go value.
func fromJSONValue(v any, into any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, into)
}

// parseSelector reads spec.selector (nil: selects nothing) into
// labelsel's selector, LabelSelectorAsSelector's; an invalid requirement
// fails it with a selectorError.
func parseSelector(v any) (labelsel.Selector, error) {
	if v == nil {
		return labelsel.Nothing(), nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return labelsel.Selector{}, fmt.Errorf("selector is not an object")
	}
	var matchLabels map[string]string
	if ml, ok := m["matchLabels"]; ok && ml != nil {
		mm, ok := ml.(map[string]any)
		if !ok {
			return labelsel.Selector{}, fmt.Errorf("selector.matchLabels is not an object")
		}
		matchLabels = map[string]string{}
		for k, x := range mm {
			str, ok := x.(string)
			if !ok {
				return labelsel.Selector{}, fmt.Errorf("selector.matchLabels[%s] is not a string", k)
			}
			matchLabels[k] = str
		}
	}
	var exprs []labelsel.Requirement
	if me, ok := m["matchExpressions"]; ok && me != nil {
		list, ok := me.([]any)
		if !ok {
			return labelsel.Selector{}, fmt.Errorf("selector.matchExpressions is not a list")
		}
		invalid := &selectorError{}
		for i, e := range list {
			r := labelsel.Requirement{Key: nestedString(e, "key"), Operator: nestedString(e, "operator")}
			vals, _ := nested(e, "values")
			vl, _ := vals.([]any)
			for _, x := range vl {
				if str, ok := x.(string); ok {
					r.Values = append(r.Values, str)
				}
			}
			invalid.fields = append(invalid.fields, r.Errors(fmt.Sprintf("matchExpressions[%d]", i))...)
			exprs = append(exprs, r)
		}
		if len(invalid.fields) > 0 {
			invalid.labels, invalid.raw = matchLabels, exprs
			return labelsel.Selector{}, invalid
		}
	}
	return labelsel.New(matchLabels, exprs), nil
}

// selectorError holds the field errors of a selector's matchExpressions,
// as ValidateLabelSelectorRequirement (apimachinery's metav1 validation)
// words them (labelsel.Requirement.Errors), with paths relative to the
// selector, and the selector as the apiserver would print it.
type selectorError struct {
	fields []string
	labels map[string]string
	raw    []labelsel.Requirement
}

func (e *selectorError) Error() string { return strings.Join(e.fields, ", ") }

// selectorErr words a selector's parse error under path: a selectorError
// as the apps and batch validation report it (ValidateReplicaSetSpec and
// its kin: ValidateLabelSelector's field errors, then
// LabelSelectorAsSelector's failure, "invalid label selector", with the
// selector as JSON), listed as ErrorList.ToAggregate lists them; another
// error as the value the path cannot take.
func selectorErr(path string, err error) error {
	se, ok := err.(*selectorError)
	if !ok {
		return fmt.Errorf("%s: Invalid value: %v", path, err)
	}
	var errs []error
	for _, f := range se.fields {
		errs = append(errs, errors.New(path+"."+f))
	}
	raw, _ := json.Marshal(struct {
		MatchLabels      map[string]string      `json:"matchLabels,omitempty"`
		MatchExpressions []labelsel.Requirement `json:"matchExpressions,omitempty"`
	}{se.labels, se.raw})
	errs = append(errs, fmt.Errorf("%s: Invalid value: %s: invalid label selector", path, raw))
	return aggregate(errs)
}

// controllerOf returns the ownerReference with controller=true, or nil
// (metav1.GetControllerOf).
func controllerOf(o *fakeapi.Object) *fakeapi.OwnerReference {
	if o == nil {
		return nil
	}
	for i := range o.Metadata.OwnerReferences {
		if o.Metadata.OwnerReferences[i].IsController() {
			return &o.Metadata.OwnerReferences[i]
		}
	}
	return nil
}

func sameControllerRef(a, b *fakeapi.OwnerReference) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

// newControllerRef is metav1.NewControllerRef: a reference to owner with
// controller and blockOwnerDeletion set.
func newControllerRef(owner *fakeapi.Object) fakeapi.OwnerReference {
	return fakeapi.OwnerReference{APIVersion: owner.APIVersion, Kind: owner.Kind, Name: owner.Metadata.Name,
		UID: owner.Metadata.UID, Controller: fakeapi.Bool(true), BlockOwnerDeletion: fakeapi.Bool(true)}
}

// objKey is the workqueue key of a namespaced object: "namespace/name".
func objKey(o *fakeapi.Object) string { return o.Metadata.Namespace + "/" + o.Metadata.Name }

// refManager claims objects for one controller object during one sync
// (upstream's PodControllerRefManager and ReplicaSetControllerRefManager,
// which share BaseControllerRefManager.ClaimObject). It writes what it
// adopted and released into the record.
type refManager struct {
	env    *env
	client string
	// owner is the controller as the informer cache held it when the sync
	// started.
	owner    *fakeapi.Object
	selector labelsel.Selector
	// canAdoptFunc rechecks, with a live read, that the owner still exists
	// with the same UID and is not being deleted. It runs at most once per
	// sync, before the first adoption (CanAdopt's sync.Once).
	canAdoptFunc func() error
	adoptChecked bool
	canAdoptErr  error
	rec          *Record
	// finalizers are added to an object it adopts (the Job controller's
	// tracking finalizer).
	finalizers []string
	adopted    []string
	released   []string
}

// recheckDeletionTimestamp is RecheckDeletionTimestamp around a live GET
// of owner: the uncached quorum read that closes the race in upstream issue
// #42639 (a controller adopting after it was deleted).
func recheckDeletionTimestamp(e *env, client string, owner *fakeapi.Object) func() error {
	return func() error {
		fresh, err := e.api.Get(client, fakeapi.RefOf(owner))
		if err != nil {
			return fmt.Errorf("can't recheck DeletionTimestamp: %v", err)
		}
		if fresh.Metadata.UID != owner.Metadata.UID {
			return fmt.Errorf("can't recheck DeletionTimestamp: original %s %s/%s is gone: got uid %s, wanted %s",
				owner.Kind, owner.Metadata.Namespace, owner.Metadata.Name, fresh.Metadata.UID, owner.Metadata.UID)
		}
		if fresh.Metadata.DeletionTimestamp != nil {
			// Upstream prints the *metav1.Time with %v: time.Time's
			// String, in the controller-manager's zone (UTC here).
			return fmt.Errorf("%s/%s has just been deleted at %s", fresh.Metadata.Namespace, fresh.Metadata.Name,
				fresh.Metadata.DeletionTimestamp.UTC().String())
		}
		return nil
	}
}

func (m *refManager) canAdopt() error {
	if !m.adoptChecked {
		m.adoptChecked = true
		if m.canAdoptFunc != nil {
			m.canAdoptErr = m.canAdoptFunc()
		}
	}
	return m.canAdoptErr
}

// claim is ClaimObject: it returns whether the owner now owns obj, and an
// error when an adoption or release was attempted and failed.
func (m *refManager) claim(obj *fakeapi.Object, match func(*fakeapi.Object) bool) (bool, error) {
	if ref := controllerOf(obj); ref != nil {
		if ref.UID != m.owner.Metadata.UID {
			return false, nil // owned by another controller
		}
		if match(obj) {
			return true, nil
		}
		// Owned by us but no longer selected: release it, unless we are
		// being deleted.
		if m.owner.Metadata.DeletionTimestamp != nil {
			return false, nil
		}
		if err := m.release(obj); err != nil {
			if fakeapi.IsNotFound(err) {
				return false, nil
			}
			return false, err
		}
		return false, nil
	}
	// An orphan.
	if m.owner.Metadata.DeletionTimestamp != nil || !match(obj) {
		return false, nil
	}
	if obj.Metadata.DeletionTimestamp != nil {
		return false, nil
	}
	if m.owner.Metadata.Namespace != "" && m.owner.Metadata.Namespace != obj.Metadata.Namespace {
		return false, nil
	}
	if err := m.adopt(obj); err != nil {
		if fakeapi.IsNotFound(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// adoptPatch is the strategic merge patch that makes owner the controller
// of the object with uid (ownerRefControllerPatch): merged by uid, and
// carrying the object's uid so a recreated object is not adopted.
func adoptPatch(owner *fakeapi.Object, uid string, finalizers ...string) []byte {
	body := struct {
		Metadata struct {
			OwnerReferences []fakeapi.OwnerReference `json:"ownerReferences"`
			UID             string                   `json:"uid"`
			Finalizers      []string                 `json:"finalizers,omitempty"`
		} `json:"metadata"`
	}{}
	body.Metadata.OwnerReferences = []fakeapi.OwnerReference{newControllerRef(owner)}
	body.Metadata.UID = uid
	body.Metadata.Finalizers = finalizers
	b, _ := json.Marshal(body)
	return b
}

func (m *refManager) adopt(obj *fakeapi.Object) error {
	if err := m.canAdopt(); err != nil {
		return fmt.Errorf("can't adopt %s %s/%s (%s): %v", obj.Kind, obj.Metadata.Namespace, obj.Metadata.Name, obj.Metadata.UID, err)
	}
	return m.patchAdopt(obj)
}

// patchAdopt sends the adoption patch, with no recheck of the owner: the
// caller has made it (adopt, or the StatefulSet's adoptOrphanRevisions).
func (m *refManager) patchAdopt(obj *fakeapi.Object) error {
	_, err := m.env.api.Patch(m.client, fakeapi.RefOf(obj), fakeapi.StrategicMergePatch, adoptPatch(m.owner, obj.Metadata.UID, m.finalizers...))
	if err == nil {
		m.adopted = append(m.adopted, obj.String())
		m.rec.Note("adopted %s: an orphan whose labels match %s", obj, m.selector)
	}
	return err
}

// deleteOwnerRefPatch is GenerateDeleteOwnerRefStrategicMergeBytes, the
// strategic merge patch both the collector (R54) and a releasing
// controller send: it deletes the references to the owners with
// ownerUIDs, carries the dependent's uid (first, as ObjectMeta orders
// it), and deletes the given finalizers (the Job controller's tracking
// finalizer: a Pod it releases is no longer its to count).
func deleteOwnerRefPatch(dependentUID string, ownerUIDs []string, finalizers ...string) []byte {
	body := struct {
		Metadata struct {
			UID              string              `json:"uid"`
			OwnerReferences  []map[string]string `json:"ownerReferences"`
			DeleteFinalizers []string            `json:"$deleteFromPrimitiveList/finalizers,omitempty"`
		} `json:"metadata"`
	}{}
	body.Metadata.UID = dependentUID
	body.Metadata.OwnerReferences = make([]map[string]string, len(ownerUIDs))
	for i, u := range ownerUIDs {
		body.Metadata.OwnerReferences[i] = map[string]string{"$patch": "delete", "uid": u}
	}
	body.Metadata.DeleteFinalizers = finalizers
	b, _ := json.Marshal(body)
	return b
}

func (m *refManager) release(obj *fakeapi.Object) error {
	_, err := m.env.api.Patch(m.client, fakeapi.RefOf(obj), fakeapi.StrategicMergePatch,
		deleteOwnerRefPatch(obj.Metadata.UID, []string{m.owner.Metadata.UID}, m.finalizers...))
	if err == nil {
		m.released = append(m.released, obj.String())
		m.rec.Note("released %s: its labels no longer match %s", obj, m.selector)
		return nil
	}
	// Invalid means the object has no such reference any more, or was
	// recreated with another uid: there is nothing to release.
	if fakeapi.IsNotFound(err) || fakeapi.IsInvalid(err) {
		return nil
	}
	return err
}

// summary says what the claim did, for the reason: "" when nothing.
func (m *refManager) summary() string {
	t, ok := m.summaryText()
	if !ok {
		return ""
	}
	return t.String()
}

// bracketed is summary in brackets after a sentence, " (adopted
// Pod/a)": no sentences when the claim did nothing.
func (m *refManager) bracketed() []Text {
	t, ok := m.summaryText()
	if !ok {
		return nil
	}
	return []Text{say(" ("), t, say(")")}
}

// summaryText is summary in its text form; ok is false when the claim
// did nothing.
func (m *refManager) summaryText() (t Text, ok bool) {
	switch {
	case len(m.adopted) > 0 && len(m.released) > 0:
		return say("adopted %s, released %s", listPhrase(m.adopted), listPhrase(m.released)), true
	case len(m.adopted) > 0:
		return say("adopted %s", listPhrase(m.adopted)), true
	case len(m.released) > 0:
		return say("released %s", listPhrase(m.released)), true
	}
	return Text{}, false
}

// listPhrase lists names, shortening long lists.
func listPhrase(names []string) string {
	if len(names) <= 3 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s, %s and %d more", names[0], names[1], len(names)-2)
}

// aggregate is utilerrors.NewAggregate: nil without a non-nil error, the
// error itself when there is one, else an aggregateError.
func aggregate(errs []error) error {
	var out aggregateError
	for _, e := range errs {
		if e != nil {
			out = append(out, e)
		}
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		// Upstream's aggregate of one says that error's message.
		return out[0]
	}
	return out
}

// aggregateError is utilerrors' aggregate: its message lists each
// distinct message once, in order, nested aggregates flattened, in
// brackets unless there is only one.
type aggregateError []error

func (a aggregateError) Error() string {
	var msgs []string
	seen := map[string]bool{}
	a.visit(func(e error) {
		if m := e.Error(); !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	})
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

func (a aggregateError) visit(f func(error)) {
	for _, e := range a {
		if n, ok := e.(aggregateError); ok {
			n.visit(f)
			continue
		}
		f(e)
	}
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// templateSelector reads a workload's spec.selector and checks it as the
// apps/v1 validation of a StatefulSet or DaemonSet (kind) does, with its
// field errors (ValidateStatefulSetSpec, ValidateDaemonSetSpec): a
// StatefulSet's selector is required; neither may be empty ({}); and
// it must select the Pod template's labels (a StatefulSet with an empty
// selector skips that check, which an empty selector would pass anyway).
// Several errors are listed in brackets, as ErrorList.ToAggregate does.
func templateSelector(kind string, spec, template map[string]any) (labelsel.Selector, error) {
	raw := spec["selector"]
	sel, err := parseSelector(raw)
	if err != nil {
		return sel, selectorErr("spec.selector", err)
	}
	empty := raw != nil && sel.Empty()
	var errs []error
	if raw == nil && kind == "StatefulSet" {
		errs = append(errs, errors.New("spec.selector: Required value"))
	}
	if empty && kind == "StatefulSet" {
		errs = append(errs, errors.New("spec.selector: Invalid value: {}: empty selector is invalid for statefulset"))
	}
	meta := nestedMap(template, "metadata")
	if !empty && !sel.Matches(stringMap(meta["labels"])) {
		// The bad value is the template's labels, as JSON (null when
		// there are none).
		labels, _ := json.Marshal(meta["labels"])
		errs = append(errs, fmt.Errorf("spec.template.metadata.labels: Invalid value: %s: `selector` does not match template `labels`", labels))
	}
	if empty && kind == "DaemonSet" {
		errs = append(errs, errors.New("spec.selector: Invalid value: {}: empty selector is invalid for daemonset"))
	}
	return sel, aggregate(errs)
}
