package fakeapi

import (
	"strconv"

	"github.com/gcplay/gcplay/internal/jsoneq"
)

// DaemonSetTemplateGenerationAnnotation is apps/v1's
// deprecated.daemonset.template.generation: the apiserver's count of a
// DaemonSet's pod template versions (the internal spec.templateGeneration,
// which apps/v1 carries as this annotation). The DaemonSet controller
// labels each Pod with it (pod-template-generation).
const DaemonSetTemplateGenerationAnnotation = "deprecated.daemonset.template.generation"

// prepareDaemonSetCreate is daemonSetStrategy.PrepareForCreate's template
// generation: the one the client wrote if it is at least 1, else 1.
func prepareDaemonSetCreate(obj *Object) {
	if obj.APIVersion != "apps/v1" || obj.Kind != "DaemonSet" {
		return
	}
	gen := templateGeneration(obj)
	if gen < 1 {
		gen = 1
	}
	setTemplateGeneration(obj, gen)
}

// prepareDaemonSetUpdate is daemonSetStrategy.PrepareForUpdate's: a client
// cannot set the template generation; it goes up by one when the pod
// template changed.
func prepareDaemonSetUpdate(cur, next *Object) {
	if next.APIVersion != "apps/v1" || next.Kind != "DaemonSet" {
		return
	}
	gen := templateGeneration(cur)
	if !jsoneq.Equal(mapField(cur.Fields.Get("spec"), "template"), mapField(next.Fields.Get("spec"), "template")) {
		gen++
	}
	setTemplateGeneration(next, gen)
}

func templateGeneration(o *Object) int64 {
	n, err := strconv.ParseInt(o.Metadata.Annotations[DaemonSetTemplateGenerationAnnotation], 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func setTemplateGeneration(o *Object, gen int64) {
	if o.Metadata.Annotations == nil {
		o.Metadata.Annotations = map[string]string{}
	}
	o.Metadata.Annotations[DaemonSetTemplateGenerationAnnotation] = strconv.FormatInt(gen, 10)
}

func mapField(v any, key string) any {
	if m, ok := v.(map[string]any); ok {
		return m[key]
	}
	return nil
}

// validateRestoredStatefulSet is what a restore checks of a
// StatefulSet's spec: the retention policy, which gcplay's StatefulSet
// controller depends on. The rest of the spec (validateAppsCreate) is not
// checked: a dump holds what a cluster stored, and the controllers deal
// with a spec the apiserver would now refuse.
func validateRestoredStatefulSet(obj *Object) []fieldError {
	if obj.APIVersion != "apps/v1" || obj.Kind != "StatefulSet" {
		return nil
	}
	return validateRetentionPolicy(specMap(obj))
}

// validateRetentionPolicy is ValidatePersistentVolumeClaimRetentionPolicy:
// whenDeleted and whenScaled must each be Retain or Delete once defaulted
// (an empty one defaults to Retain). The bad value is a named string type
// upstream, so the error shows it as JSON.
func validateRetentionPolicy(spec map[string]any) []fieldError {
	policy, _ := spec["persistentVolumeClaimRetentionPolicy"].(map[string]any)
	var errs []fieldError
	for _, f := range []string{"whenDeleted", "whenScaled"} {
		v, _ := policy[f].(string)
		switch v {
		case "", "Retain", "Delete":
		default:
			errs = append(errs, notSupportedField("spec.persistentVolumeClaimRetentionPolicy."+f, jsonValue(v), []string{"Retain", "Delete"}))
		}
	}
	return errs
}

// validateStatefulSetStatus is ValidateStatefulSetStatus, for an update
// that changes a StatefulSet's status (gcplay's controllers write status
// through the object itself, which stands for UpdateStatus here): no
// count is negative, none is above status.replicas, and availableReplicas
// is not above readyReplicas.
func validateStatefulSetStatus(cur, next *Object) []fieldError {
	if next.APIVersion != "apps/v1" || next.Kind != "StatefulSet" {
		return nil
	}
	st := next.Fields.Get("status")
	if jsoneq.Equal(cur.Fields.Get("status"), st) {
		return nil
	}
	count := func(f string) (int64, bool) { return numberValue(mapField(st, f)) }
	var errs []fieldError
	for _, f := range []string{"replicas", "readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas", "observedGeneration", "collisionCount"} {
		if n, _ := count(f); n < 0 {
			errs = append(errs, invalidField("status."+f, strconv.FormatInt(n, 10), "must be greater than or equal to 0"))
		}
	}
	replicas, _ := count("replicas")
	for _, f := range []string{"readyReplicas", "currentReplicas", "updatedReplicas", "availableReplicas"} {
		if n, _ := count(f); n > replicas {
			errs = append(errs, invalidField("status."+f, strconv.FormatInt(n, 10), "cannot be greater than status.replicas"))
		}
	}
	ready, _ := count("readyReplicas")
	if n, _ := count("availableReplicas"); n > ready {
		errs = append(errs, invalidField("status.availableReplicas", strconv.FormatInt(n, 10), "cannot be greater than status.readyReplicas"))
	}
	return errs
}
