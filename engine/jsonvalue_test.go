package engine

import (
	"math"
	mathrand "math/rand"
	"math/rand/v2"
	"reflect"
	"testing"
	"testing/quick"

	"github.com/gcplay/gcplay/internal/jsoneq"

	"github.com/gcplay/gcplay/internal/jsontest"
)

func TestToJSONValueEqualsRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name   string
		v      any
		direct bool // copyJSONTree takes it
	}{
		{"nil", nil, true},
		{"string", "web", true},
		{"html", "<a&b>", true},
		{"number", 3.0, true},
		{"negative zero", math.Copysign(0, -1), true},
		{"large", 1e300, true},
		{"bool", true, true},
		{"tree", map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "ports": []any{80.0, nil}}}}}, true},
		{"empty map", map[string]any{}, true},
		{"empty list", []any{}, true},
		{"nil map", map[string]any(nil), true},
		{"nil list in a map", map[string]any{"a": []any(nil)}, true},
		{"int", 3, false},
		{"int in a tree", map[string]any{"a": []any{int64(1) << 60}}, false},
		{"NaN", math.NaN(), false},
		{"infinity in a tree", []any{math.Inf(1)}, false},
		{"invalid UTF-8 value", map[string]any{"a": "\xff"}, false},
		{"invalid UTF-8 key", map[string]any{"\xff": "a"}, false},
		{"labels", map[string]string{"app": "web"}, false},
		{"status", deployStatus{Replicas: 2}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := copyJSONTree(tc.v); ok != tc.direct {
				t.Errorf("copyJSONTree took it: %v, want %v", ok, tc.direct)
			}
			if got, want := toJSONValue(tc.v), jsonRoundTrip(tc.v); !reflect.DeepEqual(got, want) {
				t.Errorf("toJSONValue = %#v, the round trip %#v", got, want)
			}
		})
	}
}

func TestToJSONValueEqualsRoundTripRandomTrees(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 1))
	direct := 0
	for range 5000 {
		v := jsontest.RandomTree(r, 0)
		if _, ok := copyJSONTree(v); ok {
			direct++
		}
		if got, want := toJSONValue(v), jsonRoundTrip(v); !reflect.DeepEqual(got, want) {
			t.Fatalf("toJSONValue(%#v) = %#v, the round trip %#v", v, got, want)
		}
	}
	if direct < 1000 || direct > 4000 {
		t.Errorf("%d of 5000 trees copied directly: the generator no longer mixes both kinds", direct)
	}
}

func TestDeployStatusJSONEqualsRoundTrip(t *testing.T) {
	full := deployStatus{ObservedGeneration: 3, Replicas: 4, UpdatedReplicas: 2, ReadyReplicas: 1, AvailableReplicas: 1,
		UnavailableReplicas: 3, CollisionCount: new(int64),
		Conditions: []deployCondition{{Type: "Available", Status: "False", LastUpdateTime: "t1", LastTransitionTime: "t2",
			Reason: "MinimumReplicasUnavailable", Message: "Deployment does not have minimum availability."}, {Type: "Progressing", Status: "True"}}}
	for _, tc := range []struct {
		name string
		s    deployStatus
	}{
		{"zero", deployStatus{}},
		{"full", full},
		{"empty conditions", deployStatus{Conditions: []deployCondition{}}},
		{"large", deployStatus{Replicas: math.MaxInt64, ObservedGeneration: math.MinInt64}},
		{"invalid UTF-8", deployStatus{Conditions: []deployCondition{{Type: "A", Message: "\xff"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.s.jsonValue()
			if want := jsonRoundTrip(tc.s); !reflect.DeepEqual(v, want) {
				t.Errorf("jsonValue = %#v, the round trip %#v", v, want)
			}
			checkReadDeployStatus(t, v)
		})
	}
	for _, v := range []any{
		nil,
		map[string]any{},
		map[string]any{"replicas": 1.5},
		map[string]any{"replicas": 1e21},
		map[string]any{"replicas": "2"},
		map[string]any{"replicas": nil},
		map[string]any{"Replicas": 2.0},
		map[string]any{"other": 2.0, "replicas": 2.0},
		map[string]any{"collisionCount": nil},
		map[string]any{"conditions": nil},
		map[string]any{"conditions": []any{}},
		map[string]any{"conditions": []any{"x"}},
		map[string]any{"conditions": []any{map[string]any{"type": 1.0}}},
		map[string]any{"conditions": []any{map[string]any{"type": "A", "extra": "x"}}},
		[]any{1.0},
		"status",
	} {
		checkReadDeployStatus(t, v)
	}
}

// checkReadDeployStatus holds readDeployStatus to fromJSONValue.
func checkReadDeployStatus(t *testing.T, v any) {
	t.Helper()
	var want deployStatus
	_ = fromJSONValue(v, &want)
	if got := readDeployStatus(v); !reflect.DeepEqual(got, want) {
		t.Errorf("readDeployStatus(%#v) = %#v, fromJSONValue %#v", v, got, want)
	}
}

func TestDeployStatusJSONProperty(t *testing.T) {
	f := func(s deployStatus) bool {
		// Numbers within float64's exact integers, so the reading is direct.
		for _, n := range []*int64{&s.ObservedGeneration, &s.Replicas, &s.UpdatedReplicas, &s.ReadyReplicas,
			&s.AvailableReplicas, &s.UnavailableReplicas, s.CollisionCount} {
			if n != nil {
				*n >>= 11
			}
		}
		v := s.jsonValue()
		if _, ok := readDeployStatusDirect(v); !ok {
			return false
		}
		var back deployStatus
		_ = fromJSONValue(v, &back)
		return reflect.DeepEqual(v, jsonRoundTrip(s)) && reflect.DeepEqual(readDeployStatus(v), back)
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 2000, Rand: mathrand.New(mathrand.NewSource(19))}); err != nil {
		t.Error(err)
	}
}

func TestStatusJSONValueEqualsRoundTrip(t *testing.T) {
	one := int64(1)
	for _, tc := range []struct {
		name string
		s    interface{ jsonValue() any }
	}{
		{"ReplicaSet zero", rsStatus{}},
		{"ReplicaSet full", rsStatus{Replicas: 3, FullyLabeledReplicas: 3, ReadyReplicas: 2, AvailableReplicas: 1, ObservedGeneration: 4,
			Conditions: []rsCondition{{Type: "ReplicaFailure", Status: "True", LastTransitionTime: "t", Reason: "FailedCreate", Message: "quota"}, {}}}},
		{"ReplicaSet empty conditions", rsStatus{Conditions: []rsCondition{}}},
		{"ReplicaSet invalid UTF-8", rsStatus{Conditions: []rsCondition{{Reason: "\xff"}}}},
		{"ReplicaSet large", rsStatus{Replicas: math.MaxInt64}},
		{"StatefulSet zero", stsStatus{}},
		{"StatefulSet full", stsStatus{ObservedGeneration: 2, Replicas: 3, ReadyReplicas: 3, CurrentReplicas: 1, UpdatedReplicas: 2,
			AvailableReplicas: 3, CurrentRevision: "web-1", UpdateRevision: "web-2", CollisionCount: &one}},
		{"StatefulSet invalid UTF-8", stsStatus{UpdateRevision: "web-\xff"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, want := tc.s.jsonValue(), jsonRoundTrip(tc.s); !reflect.DeepEqual(got, want) {
				t.Errorf("jsonValue = %#v, the round trip %#v", got, want)
			}
		})
	}
}

func TestStatusJSONValueProperty(t *testing.T) {
	cfg := &quick.Config{MaxCount: 1000, Rand: mathrand.New(mathrand.NewSource(19))}
	if err := quick.Check(func(s rsStatus) bool { return reflect.DeepEqual(s.jsonValue(), jsonRoundTrip(s)) }, cfg); err != nil {
		t.Error("ReplicaSet:", err)
	}
	if err := quick.Check(func(s stsStatus) bool { return reflect.DeepEqual(s.jsonValue(), jsonRoundTrip(s)) }, cfg); err != nil {
		t.Error("StatefulSet:", err)
	}
}

// TestEqualJSONIsDeepEqualRandomTrees holds jsoneq.Equal, which the
// engine compares pod templates and StatefulSet revisions with, to
// reflect.DeepEqual on the trees the engine's own conversions make
// (toJSONValue, copyJSONTree); package jsoneq tests it on its own.
func TestEqualJSONIsDeepEqualRandomTrees(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 2))
	var equal, unequal int
	for range 5000 {
		a := jsontest.RandomTree(r, 0)
		var b any
		switch r.IntN(4) {
		case 0:
			b = a // shared: reflect's shortcut for one map or slice
		case 1:
			b = toJSONValue(a)
		case 2:
			b = jsontest.RandomTree(r, 0)
		default:
			b, _ = copyJSONTree(a)
		}
		want := reflect.DeepEqual(a, b)
		if got := jsoneq.Equal(a, b); got != want {
			t.Fatalf("jsoneq.Equal(%#v, %#v) = %v, reflect.DeepEqual %v", a, b, got, want)
		}
		if want {
			equal++
		} else {
			unequal++
		}
	}
	if equal < 500 || unequal < 500 {
		t.Errorf("%d equal and %d unequal pairs: the generator no longer gives both", equal, unequal)
	}
}
