package scenario

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gcplay/gcplay/fakeapi"
)

// fieldType is how the apiserver decodes a typed field of a built-in kind:
// the Go type of its struct field, and the range its validation allows.
type fieldType struct {
	// kind is "int32", "int64" or "string".
	kind string
	// nonNegative: validation refuses a value below 0
	// (ValidateNonnegativeField).
	nonNegative bool
}

var (
	int32Field       = fieldType{kind: "int32"}
	int64Field       = fieldType{kind: "int64"}
	stringField      = fieldType{kind: "string"}
	nonNegativeInt32 = fieldType{kind: "int32", nonNegative: true}
)

// podSpecFields are the PodSpec fields checked, relative to the pod spec.
var podSpecFields = map[string]fieldType{
	"nodeName":                      stringField,
	"restartPolicy":                 stringField,
	"serviceAccountName":            stringField,
	"terminationGracePeriodSeconds": int64Field,
	"activeDeadlineSeconds":         int64Field,
	"priority":                      int32Field,
}

// typedFields lists, per built-in kind, the fields gcplay reads or that a
// learner is likely to write, by dotted path from the object's top.
var typedFields = func() map[string]map[string]fieldType {
	withPod := func(prefix string, f map[string]fieldType) map[string]fieldType {
		for k, t := range podSpecFields {
			f[prefix+k] = t
		}
		return f
	}
	return map[string]map[string]fieldType{
		"Pod": withPod("spec.", map[string]fieldType{}),
		"Deployment": withPod("spec.template.spec.", map[string]fieldType{
			"spec.replicas":                nonNegativeInt32,
			"spec.minReadySeconds":         nonNegativeInt32,
			"spec.revisionHistoryLimit":    nonNegativeInt32,
			"spec.progressDeadlineSeconds": nonNegativeInt32,
		}),
		"ReplicaSet": withPod("spec.template.spec.", map[string]fieldType{
			"spec.replicas":        nonNegativeInt32,
			"spec.minReadySeconds": nonNegativeInt32,
		}),
		"ReplicationController": withPod("spec.template.spec.", map[string]fieldType{
			"spec.replicas":        nonNegativeInt32,
			"spec.minReadySeconds": nonNegativeInt32,
		}),
		"StatefulSet": withPod("spec.template.spec.", map[string]fieldType{
			"spec.replicas":             nonNegativeInt32,
			"spec.minReadySeconds":      nonNegativeInt32,
			"spec.revisionHistoryLimit": int32Field,
			"spec.serviceName":          stringField,
		}),
		"DaemonSet": withPod("spec.template.spec.", map[string]fieldType{
			"spec.minReadySeconds":      nonNegativeInt32,
			"spec.revisionHistoryLimit": int32Field,
		}),
		"Job": withPod("spec.template.spec.", map[string]fieldType{
			"spec.parallelism":             nonNegativeInt32,
			"spec.completions":             nonNegativeInt32,
			"spec.backoffLimit":            nonNegativeInt32,
			"spec.activeDeadlineSeconds":   int64Field,
			"spec.ttlSecondsAfterFinished": nonNegativeInt32,
		}),
		"CronJob": withPod("spec.jobTemplate.spec.template.spec.", map[string]fieldType{
			"spec.schedule":                      stringField,
			"spec.startingDeadlineSeconds":       int64Field,
			"spec.successfulJobsHistoryLimit":    int32Field,
			"spec.failedJobsHistoryLimit":        int32Field,
			"spec.jobTemplate.spec.parallelism":  nonNegativeInt32,
			"spec.jobTemplate.spec.completions":  nonNegativeInt32,
			"spec.jobTemplate.spec.backoffLimit": nonNegativeInt32,
		}),
	}
}()

// checkTypedFields checks the typed fields of a built-in kind's manifest
// as the apiserver decodes them (JSON into the kind's Go struct: type and
// integer width) and validates them (range). kubectl sends YAML as JSON,
// where 3.0 is written 3, so a float with no fraction is an integer.
func (p *parser) checkTypedFields(n *yaml.Node, path string, info fakeapi.KindInfo) {
	if info.Custom {
		return
	}
	fields := typedFields[info.Kind]
	if len(fields) == 0 {
		return
	}
	for _, f := range typedFieldOrder[info.Kind] {
		v := lookupPath(n, f.keys)
		if isNull(v) {
			continue
		}
		if typedFieldOK(v, fields[f.path]) {
			continue // the path is built only for a problem
		}
		p.checkField(v, joinPath(path, f.path), fields[f.path], info.Kind)
	}
}

// typedFieldOrder lists each kind's typed fields in a fixed order, which
// keeps the errors of one line stable (they are sorted by line
// afterwards), with their keys split once.
var typedFieldOrder = func() map[string][]typedFieldPath {
	out := map[string][]typedFieldPath{}
	for kind, fields := range typedFields {
		for _, fp := range slices.Sorted(maps.Keys(fields)) {
			out[kind] = append(out[kind], typedFieldPath{path: fp, keys: strings.Split(fp, ".")})
		}
	}
	return out
}()

type typedFieldPath struct {
	path string
	keys []string
}

// typedFieldOK reports the common cases checkField accepts: a string
// where a string is wanted, a small decimal integer in range.
func typedFieldOK(v *yaml.Node, t fieldType) bool {
	if v.Kind != yaml.ScalarNode {
		return false
	}
	tag := v.ShortTag()
	if t.kind == "string" {
		return tag == "!!str"
	}
	if val := v.Value; tag == "!!int" && len(val) < 10 && allDigits(val) && (val[0] != '0' || len(val) == 1) {
		i, _ := strconv.ParseInt(val, 10, 64) // below 10^9: within int32
		return i <= math.MaxInt32
	}
	return false
}

// lookupPath follows mapping keys from n; nil when a step is missing or
// not a mapping.
func lookupPath(n *yaml.Node, keys []string) *yaml.Node {
	for _, k := range keys {
		n = deref(n)
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if kn := deref(n.Content[i]); kn != nil && kn.Kind == yaml.ScalarNode && kn.Value == k {
				next = n.Content[i+1]
				break
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return deref(n)
}

func (p *parser) checkField(v *yaml.Node, path string, t fieldType, kind string) {
	cannot := fmt.Sprintf("the apiserver cannot decode it into a %s", kind)
	if t.kind == "string" {
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
			p.errorf(v, path, "expected a string, found %s; %s (quote it: \"%s\")", kindName(v), cannot, v.Value)
		}
		return
	}
	bits := 32
	if t.kind == "int64" {
		bits = 64
	}
	lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
	if bits == 64 {
		lo, hi = math.MinInt64, math.MaxInt64
	}
	if v.Kind != yaml.ScalarNode {
		p.errorf(v, path, "expected an integer (%s), found %s; %s", t.kind, kindName(v), cannot)
		return
	}
	var i int64
	switch v.ShortTag() {
	case "!!int":
		var err error
		if err = v.Decode(&i); err != nil || i < lo || i > hi {
			p.errorf(v, path, "%s is out of range for an %s (%d to %d); %s", v.Value, t.kind, lo, hi, cannot)
			return
		}
	case "!!float":
		f, err := strconv.ParseFloat(strings.ReplaceAll(v.Value, "_", ""), 64)
		switch {
		case err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f):
			p.errorf(v, path, "expected an integer (%s), found %s; %s", t.kind, v.Value, cannot)
			return
		case f < float64(lo) || f >= float64(hi)+1:
			p.errorf(v, path, "%s is out of range for an %s (%d to %d); %s", v.Value, t.kind, lo, hi, cannot)
			return
		}
		i = int64(f)
	default:
		p.errorf(v, path, "expected an integer (%s), found %s; %s", t.kind, kindName(v), cannot)
		return
	}
	if t.nonNegative && i < 0 {
		p.errorf(v, path, "must be greater than or equal to 0, found %d (the apiserver refuses this %s as Invalid)", i, kind)
	}
}
