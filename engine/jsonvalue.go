package engine

import (
	"math"
	"unicode/utf8"
)

// This file holds direct forms of the JSON round trips the controllers
// use to copy and convert stored values (toJSONValue, fromJSONValue in
// controllerref.go): each gives exactly what encoding/json would, and
// hands anything it is not sure of to the round trip itself.

// copyJSONTree returns a deep copy of v when v is already what
// encoding/json decodes into an any (map[string]any, []any, string,
// float64, bool, nil), so that the copy equals toJSONValue's round trip.
// It reports false for anything the round trip would change or reject:
// another Go type, a NaN or an infinity, a string or key that is not
// valid UTF-8.
func copyJSONTree(v any) (any, bool) {
	switch t := v.(type) {
	case nil, bool:
		return t, true
	case string:
		return t, utf8.ValidString(t)
	case float64:
		return t, !math.IsNaN(t) && !math.IsInf(t, 0)
	case map[string]any:
		if t == nil {
			return nil, true
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			c, ok := copyJSONTree(e)
			if !ok || !utf8.ValidString(k) {
				return nil, false
			}
			out[k] = c
		}
		return out, true
	case []any:
		if t == nil {
			return nil, true
		}
		out := make([]any, len(t))
		for i, e := range t {
			c, ok := copyJSONTree(e)
			if !ok {
				return nil, false
			}
			out[i] = c
		}
		return out, true
	}
	return nil, false
}

// jsonFields builds a status as encoding/json encodes a struct and then
// decodes it into an any: numbers as float64, an omitempty field left out
// when empty. valid turns false at a string that is not UTF-8 (json would
// replace its bytes); the caller then takes the round trip.
type jsonFields struct {
	m     map[string]any
	valid bool
}

func newJSONFields() *jsonFields { return &jsonFields{m: map[string]any{}, valid: true} }

func (f *jsonFields) int(k string, n int64, omitempty bool) {
	if n != 0 || !omitempty {
		f.m[k] = float64(n)
	}
}

func (f *jsonFields) intPtr(k string, n *int64) {
	if n != nil {
		f.m[k] = float64(*n)
	}
}

func (f *jsonFields) string(k, s string, omitempty bool) {
	if s != "" || !omitempty {
		f.m[k] = s
		f.valid = f.valid && utf8.ValidString(s)
	}
}

// jsonValue returns the status as toJSONValue would.
func (s deployStatus) jsonValue() any {
	f := newJSONFields()
	f.int("observedGeneration", s.ObservedGeneration, true)
	f.int("replicas", s.Replicas, true)
	f.int("updatedReplicas", s.UpdatedReplicas, true)
	f.int("readyReplicas", s.ReadyReplicas, true)
	f.int("availableReplicas", s.AvailableReplicas, true)
	f.int("unavailableReplicas", s.UnavailableReplicas, true)
	if len(s.Conditions) > 0 {
		conds := make([]any, len(s.Conditions))
		for i, c := range s.Conditions {
			cf := newJSONFields()
			cf.string("type", c.Type, false)
			cf.string("status", c.Status, false)
			cf.string("lastUpdateTime", c.LastUpdateTime, true)
			cf.string("lastTransitionTime", c.LastTransitionTime, true)
			cf.string("reason", c.Reason, true)
			cf.string("message", c.Message, true)
			f.valid = f.valid && cf.valid
			conds[i] = cf.m
		}
		f.m["conditions"] = conds
	}
	f.intPtr("collisionCount", s.CollisionCount)
	if !f.valid {
		return toJSONValue(s)
	}
	return f.m
}

// jsonValue returns the status as toJSONValue would.
func (s rsStatus) jsonValue() any {
	f := newJSONFields()
	f.int("replicas", s.Replicas, false)
	f.int("fullyLabeledReplicas", s.FullyLabeledReplicas, true)
	f.int("readyReplicas", s.ReadyReplicas, true)
	f.int("availableReplicas", s.AvailableReplicas, true)
	f.int("observedGeneration", s.ObservedGeneration, true)
	if len(s.Conditions) > 0 {
		conds := make([]any, len(s.Conditions))
		for i, c := range s.Conditions {
			cf := newJSONFields()
			cf.string("type", c.Type, false)
			cf.string("status", c.Status, false)
			cf.string("lastTransitionTime", c.LastTransitionTime, true)
			cf.string("reason", c.Reason, true)
			cf.string("message", c.Message, true)
			f.valid = f.valid && cf.valid
			conds[i] = cf.m
		}
		f.m["conditions"] = conds
	}
	if !f.valid {
		return toJSONValue(s)
	}
	return f.m
}

// jsonValue returns the status as toJSONValue would.
func (s stsStatus) jsonValue() any {
	f := newJSONFields()
	f.int("observedGeneration", s.ObservedGeneration, true)
	f.int("replicas", s.Replicas, false)
	f.int("readyReplicas", s.ReadyReplicas, true)
	f.int("currentReplicas", s.CurrentReplicas, true)
	f.int("updatedReplicas", s.UpdatedReplicas, true)
	f.int("availableReplicas", s.AvailableReplicas, false)
	f.string("currentRevision", s.CurrentRevision, true)
	f.string("updateRevision", s.UpdateRevision, true)
	f.intPtr("collisionCount", s.CollisionCount)
	if !f.valid {
		return toJSONValue(s)
	}
	return f.m
}

// readDeployStatus decodes a stored Deployment status as fromJSONValue
// would. A status of the form jsonValue writes (known keys, whole numbers
// within float64's exact integers, string condition fields) is read
// directly; anything else goes through the round trip.
func readDeployStatus(v any) deployStatus {
	if s, ok := readDeployStatusDirect(v); ok {
		return s
	}
	var s deployStatus
	_ = fromJSONValue(v, &s)
	return s
}

func readDeployStatusDirect(v any) (deployStatus, bool) {
	var s deployStatus
	if v == nil {
		return s, true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return s, false
	}
	for k, x := range m {
		var n *int64
		switch k {
		case "observedGeneration":
			n = &s.ObservedGeneration
		case "replicas":
			n = &s.Replicas
		case "updatedReplicas":
			n = &s.UpdatedReplicas
		case "readyReplicas":
			n = &s.ReadyReplicas
		case "availableReplicas":
			n = &s.AvailableReplicas
		case "unavailableReplicas":
			n = &s.UnavailableReplicas
		case "collisionCount":
			s.CollisionCount = new(int64)
			n = s.CollisionCount
		case "conditions":
			list, ok := x.([]any)
			if !ok || list == nil {
				return s, false
			}
			s.Conditions = make([]deployCondition, len(list))
			for i, e := range list {
				if !readDeployConditionDirect(e, &s.Conditions[i]) {
					return s, false
				}
			}
			continue
		default:
			return s, false
		}
		if !exactInt(x, n) {
			return s, false
		}
	}
	return s, true
}

func readDeployConditionDirect(v any, c *deployCondition) bool {
	m, ok := v.(map[string]any)
	if !ok || m == nil {
		return false
	}
	for k, x := range m {
		s, ok := x.(string)
		if !ok {
			return false
		}
		switch k {
		case "type":
			c.Type = s
		case "status":
			c.Status = s
		case "lastUpdateTime":
			c.LastUpdateTime = s
		case "lastTransitionTime":
			c.LastTransitionTime = s
		case "reason":
			c.Reason = s
		case "message":
			c.Message = s
		default:
			return false
		}
	}
	return true
}

// exactInt stores x in *n when x is a float64 holding a whole number that
// float64 represents exactly (|x| ≤ 2^53), which json decodes into an
// int64 as the same number.
func exactInt(x any, n *int64) bool {
	f, ok := x.(float64)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return false
	}
	*n = int64(f)
	return true
}
