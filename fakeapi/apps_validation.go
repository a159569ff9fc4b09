package fakeapi

import (
	"slices"
	"strconv"

	"github.com/gcplay/gcplay/internal/jsoneq"
	"github.com/gcplay/gcplay/internal/labelsel"
)

// The validation of apps/v1 workload specs the registry strategies run on
// create and update (pkg/apis/apps/validation): ValidateStatefulSet,
// ValidateStatefulSetUpdate, ValidateDaemonSet, ValidateDaemonSetUpdate,
// and the selector immutability of ValidateDeploymentUpdate and
// ValidateReplicaSetUpdate, with their texts and in their order, on the
// defaulted object. Left out: ValidatePodTemplateSpec (the Pod spec's own
// rules), ValidateLabelSelector's per-field errors (a selector whose
// expressions do not parse gets LabelSelectorAsSelector's error alone),
// the claim templates' spec, label and annotation syntax, a DaemonSet's
// maxUnavailable and maxSurge, and a StatefulSet's name as a DNS label.
//
// The values that field errors show are those of the internal types
// validation runs on: a named string type or a struct as JSON, and the
// internal update strategies have no JSON tags, so they show Go's field
// names ({"Type":"Foo","RollingUpdate":null}).

// validateAppsCreate is the create validation of a StatefulSet or
// DaemonSet (their strategies' Validate, after PrepareForCreate).
func validateAppsCreate(obj *Object) []fieldError {
	if obj.APIVersion != "apps/v1" {
		return nil
	}
	switch obj.Kind {
	case "StatefulSet":
		prepareStatefulSet(nil, obj)
		return validateStatefulSetSpec(specMap(obj), true)
	case "DaemonSet":
		return validateDaemonSetSpec(specMap(obj))
	}
	return nil
}

// validateAppsUpdate is the update validation of the four apps/v1
// workloads, after the metadata's. A write that leaves the spec as it is
// skips it: gcplay's controllers write status through the object itself,
// where upstream's write /status, whose strategy does not validate the
// spec (so a set restored from a dump with a spec the apiserver refuses
// can still have its status written).
func validateAppsUpdate(cur, next *Object) []fieldError {
	if next.APIVersion != "apps/v1" {
		return nil
	}
	if next.Kind == "StatefulSet" {
		prepareStatefulSet(cur, next)
	}
	// The stored object is read with the defaults as well (one restored
	// from a dump may lack them).
	old := &Object{APIVersion: cur.APIVersion, Kind: cur.Kind, Fields: cur.Fields.Clone()}
	defaultAppsObject(old)
	oldSpec, spec := specMap(old), specMap(next)
	if jsoneq.Equal(oldSpec, spec) {
		return nil
	}
	switch next.Kind {
	case "StatefulSet":
		// ValidateStatefulSetUpdate: the new spec, with the service
		// name no longer checked, then the fields that may change.
		errs := validateStatefulSetSpec(spec, false)
		if !jsoneq.Equal(withoutKeys(spec, statefulSetMutableFields), withoutKeys(oldSpec, statefulSetMutableFields)) {
			errs = append(errs, forbiddenField("spec", "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"))
		}
		return errs
	case "DaemonSet":
		// ValidateDaemonSetUpdate: ValidateDaemonSetSpecUpdate (the
		// template generation is the strategy's to set), then the spec.
		errs := immutableSelector(oldSpec, spec)
		return append(errs, validateDaemonSetSpec(spec)...)
	case "Deployment", "ReplicaSet":
		// ValidateDeploymentUpdate, ValidateReplicaSetUpdate: gcplay
		// checks only the selector, which apps/v1 keeps immutable.
		return immutableSelector(oldSpec, spec)
	}
	return nil
}

// statefulSetMutableFields are the spec fields ValidateStatefulSetUpdate
// lets an update change.
var statefulSetMutableFields = []string{"replicas", "template", "updateStrategy", "minReadySeconds", "ordinals",
	"revisionHistoryLimit", "persistentVolumeClaimRetentionPolicy"}

// prepareStatefulSet is the part of the strategy's PrepareForCreate and
// PrepareForUpdate that drops fields of disabled features
// (dropStatefulSetDisabledFields): with MaxUnavailableStatefulSet off, as
// in v1.34, rollingUpdate.maxUnavailable is dropped unless the stored set
// already has one.
func prepareStatefulSet(cur, next *Object) {
	if cur != nil && nestedFieldOK(cur.Fields, "spec", "updateStrategy", "rollingUpdate", "maxUnavailable") {
		return
	}
	spec, _ := next.Fields.Get("spec").(map[string]any)
	us, _ := spec["updateStrategy"].(map[string]any)
	ru, _ := us["rollingUpdate"].(map[string]any)
	// The defaulted spec is the request's own copy (defaultAppsObject).
	delete(ru, "maxUnavailable")
}

func nestedFieldOK(f Fields, path ...string) bool {
	v, ok := nestedField(f, path...)
	return ok && v != nil
}

// validateStatefulSetSpec is ValidateStatefulSetSpec; create checks the
// service name (AllowInvalidServiceName is false only there).
func validateStatefulSetSpec(spec map[string]any, create bool) []fieldError {
	var errs []fieldError
	switch p := spec["podManagementPolicy"]; p {
	case nil, "":
		errs = append(errs, requiredField("spec.podManagementPolicy", ""))
	case "OrderedReady", "Parallel":
	default:
		errs = append(errs, invalidField("spec.podManagementPolicy", jsonValue(p), "must be 'OrderedReady' or 'Parallel'"))
	}
	us, _ := spec["updateStrategy"].(map[string]any)
	switch t := us["type"]; t {
	case nil, "":
		errs = append(errs, requiredField("spec.updateStrategy", ""))
	case "OnDelete":
		if ru := us["rollingUpdate"]; ru != nil {
			errs = append(errs, invalidField("spec.updateStrategy.rollingUpdate", internalRollingUpdate(ru),
				"only allowed for updateStrategy 'RollingUpdate'"))
		}
	case "RollingUpdate":
		if ru, ok := us["rollingUpdate"].(map[string]any); ok {
			errs = append(errs, nonNegative("spec.updateStrategy.rollingUpdate.partition", ru["partition"])...)
		}
	default:
		errs = append(errs, invalidField("spec.updateStrategy",
			`{"Type":`+jsonValue(t)+`,"RollingUpdate":`+internalRollingUpdate(us["rollingUpdate"])+`}`,
			"must be 'RollingUpdate' or 'OnDelete'"))
	}
	errs = append(errs, validateRetentionPolicy(spec)...)
	errs = append(errs, nonNegative("spec.replicas", spec["replicas"])...)
	errs = append(errs, nonNegative("spec.minReadySeconds", spec["minReadySeconds"])...)
	if o, ok := spec["ordinals"].(map[string]any); ok {
		errs = append(errs, nonNegative("spec.ordinals.start", o["start"])...)
	}
	if name, _ := spec["serviceName"].(string); create && name != "" {
		for _, msg := range isDNS1123Label(name) {
			errs = append(errs, invalidField("spec.serviceName", goString(name), msg))
		}
	}
	sel, hasSel := spec["selector"].(map[string]any)
	if !hasSel {
		errs = append(errs, requiredField("spec.selector", ""))
	} else if selectorEmpty(sel) {
		errs = append(errs, invalidField("spec.selector", selectorJSON(sel), "empty selector is invalid for statefulset"))
	}
	labels := templateLabels(spec)
	switch s, ok := parseLabelSelector(spec["selector"]); {
	case !ok:
		errs = append(errs, invalidField("spec.selector", selectorJSON(sel), ""))
	case !s.Empty() && !s.MatchesAny(labels):
		// ValidatePodTemplateSpecForStatefulSet: a nil selector selects
		// nothing, so it fails here too.
		errs = append(errs, invalidField("spec.template.metadata.labels", jsonValue(labels), "`selector` does not match template `labels`"))
	}
	return append(errs, validateTemplateRestart(spec, "StatefulSet")...)
}

// validateDaemonSetSpec is ValidateDaemonSetSpec.
func validateDaemonSetSpec(spec map[string]any) []fieldError {
	var errs []fieldError
	sel, _ := spec["selector"].(map[string]any)
	s, ok := parseLabelSelector(spec["selector"])
	if ok && !s.MatchesAny(templateLabels(spec)) {
		errs = append(errs, invalidField("spec.template.metadata.labels", jsonValue(templateLabels(spec)), "`selector` does not match template `labels`"))
	}
	if sel != nil && selectorEmpty(sel) {
		errs = append(errs, invalidField("spec.selector", selectorJSON(sel), "empty selector is invalid for daemonset"))
	}
	errs = append(errs, validateTemplateRestart(spec, "DaemonSet")...)
	errs = append(errs, nonNegative("spec.minReadySeconds", spec["minReadySeconds"])...)
	us, _ := spec["updateStrategy"].(map[string]any)
	switch t := us["type"]; t {
	case "OnDelete":
	case "RollingUpdate":
		if us["rollingUpdate"] == nil {
			errs = append(errs, requiredField("spec.updateStrategy.rollingUpdate", ""))
		}
	default:
		errs = append(errs, notSupportedField("spec.updateStrategy",
			`{"Type":`+jsonValue(t)+`,"RollingUpdate":`+internalDaemonSetRollingUpdate(us["rollingUpdate"])+`}`,
			[]string{"RollingUpdate", "OnDelete"}))
	}
	if l, ok := spec["revisionHistoryLimit"]; ok && l != nil {
		errs = append(errs, nonNegative("spec.revisionHistoryLimit", l)...)
	}
	return errs
}

// validateTemplateRestart is the two checks of the template that both
// specs end with: restartPolicy must be Always, and no
// activeDeadlineSeconds.
func validateTemplateRestart(spec map[string]any, kind string) []fieldError {
	var errs []fieldError
	ps, _ := mapField(spec["template"], "spec").(map[string]any)
	// An unset policy is Always: SetDefaults_PodSpec (a DaemonSet's
	// template is not defaulted in storage, see apps_defaults.go).
	if p := ps["restartPolicy"]; p != nil && p != "" && p != "Always" {
		errs = append(errs, notSupportedField("spec.template.spec.restartPolicy", jsonValue(p), []string{"Always"}))
	}
	if ps["activeDeadlineSeconds"] != nil {
		errs = append(errs, forbiddenField("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in "+kind+" is not Supported"))
	}
	return errs
}

// immutableSelector is ValidateImmutableField on spec.selector.
func immutableSelector(oldSpec, spec map[string]any) []fieldError {
	if jsoneq.Equal(normalSelector(oldSpec["selector"]), normalSelector(spec["selector"])) {
		return nil
	}
	v := "null"
	if sel, ok := spec["selector"].(map[string]any); ok {
		v = selectorJSON(sel)
	}
	return []fieldError{invalidField("spec.selector", v, "field is immutable")}
}

// nonNegative is ValidateNonnegativeField of a number, if v is one.
func nonNegative(field string, v any) []fieldError {
	if n, ok := numberValue(v); ok && n < 0 {
		return []fieldError{invalidField(field, strconv.FormatInt(n, 10), "must be greater than or equal to 0")}
	}
	return nil
}

// internalRollingUpdate shows a StatefulSet's rollingUpdate as the
// internal RollingUpdateStatefulSetStrategy marshals (Partition, and
// MaxUnavailable as an IntOrString, which has its own JSON).
func internalRollingUpdate(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return "null"
	}
	n, _ := numberValue(m["partition"])
	mu := "null"
	if x, ok := m["maxUnavailable"]; ok && x != nil {
		mu = jsonValue(x)
	}
	return `{"Partition":` + strconv.FormatInt(n, 10) + `,"MaxUnavailable":` + mu + `}`
}

// internalDaemonSetRollingUpdate is the same for a DaemonSet's
// RollingUpdateDaemonSet (MaxUnavailable, MaxSurge).
func internalDaemonSetRollingUpdate(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return "null"
	}
	show := func(k string) string {
		if x, ok := m[k]; ok && x != nil {
			return jsonValue(x)
		}
		return "null"
	}
	return `{"MaxUnavailable":` + show("maxUnavailable") + `,"MaxSurge":` + show("maxSurge") + `}`
}

func specMap(o *Object) map[string]any {
	m, _ := o.Fields.Get("spec").(map[string]any)
	return m
}

func templateLabels(spec map[string]any) map[string]any {
	l, _ := mapField(mapField(spec["template"], "metadata"), "labels").(map[string]any)
	return l
}

func withoutKeys(m map[string]any, keys []string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if !slices.Contains(keys, k) {
			out[k] = v
		}
	}
	return out
}

// ---- label selectors ----

// parseLabelSelector reads a selector into labelsel's selector,
// LabelSelectorAsSelector's (nil: selects nothing); ok is false where it
// fails here: an unknown operator, In or NotIn without values, Exists or
// DoesNotExist with some (labelsel.Requirement.OperatorErrors), a value
// that is not a string.
func parseLabelSelector(v any) (labelsel.Selector, bool) {
	if v == nil {
		return labelsel.Nothing(), true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return labelsel.Selector{}, false
	}
	var labels map[string]string
	if ml, ok := m["matchLabels"].(map[string]any); ok {
		labels = map[string]string{}
		for k, x := range ml {
			str, ok := x.(string)
			if !ok {
				return labelsel.Selector{}, false
			}
			labels[k] = str
		}
	}
	var exprs []labelsel.Requirement
	list, _ := m["matchExpressions"].([]any)
	for _, e := range list {
		em, _ := e.(map[string]any)
		r := labelsel.Requirement{Key: stringValue(em["key"]), Operator: stringValue(em["operator"])}
		vals, _ := em["values"].([]any)
		for _, x := range vals {
			str, ok := x.(string)
			if !ok {
				return labelsel.Selector{}, false
			}
			r.Values = append(r.Values, str)
		}
		if len(r.OperatorErrors("")) > 0 {
			return labelsel.Selector{}, false
		}
		exprs = append(exprs, r)
	}
	return labelsel.New(labels, exprs), true
}

// selectorEmpty reports whether a selector has no labels and no
// expressions.
func selectorEmpty(sel map[string]any) bool {
	ml, _ := sel["matchLabels"].(map[string]any)
	me, _ := sel["matchExpressions"].([]any)
	return len(ml) == 0 && len(me) == 0
}

// normalSelector is a selector as the typed object holds it: empty
// matchLabels and matchExpressions are absent.
func normalSelector(v any) any {
	sel, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for k, x := range sel {
		switch t := x.(type) {
		case map[string]any:
			if len(t) == 0 {
				continue
			}
		case []any:
			if len(t) == 0 {
				continue
			}
		case nil:
			continue
		}
		out[k] = x
	}
	return out
}

// selectorJSON shows a selector as field errors do: metav1.LabelSelector
// as JSON, empty fields omitted.
func selectorJSON(sel map[string]any) string {
	return jsonValue(normalSelector(sel))
}
