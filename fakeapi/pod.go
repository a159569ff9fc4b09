package fakeapi

import (
	"math/big"
	"strconv"
	"strings"
)

// What the apiserver does to a v1 Pod on create, beyond storing it:
// podStrategy.PrepareForCreate (pkg/registry/core/pod/strategy.go) puts
// a new status in place of the one the client sent: phase Pending and the
// QoS class (qos.GetPodQOS: the client's status.qosClass if it gave one,
// else ComputePodQOS). Until the kubelet reports on it, a Pod is Pending.
//
// Not modelled: the defaulting of the spec (SetDefaults_Pod writes each
// container's limits into its missing requests; here the QoS class is
// computed as if it had), the PodScheduled condition of a Pod with
// scheduling gates (applySchedulingGatedCondition), and the other
// mutations of PrepareForCreate (affinity, topology spread, AppArmor).
func preparePodCreate(obj *Object) {
	if obj.APIVersion != "v1" || obj.Kind != "Pod" {
		return
	}
	qos := ""
	if st, ok := obj.Fields.Get("status").(map[string]any); ok {
		qos, _ = st["qosClass"].(string)
	}
	if qos == "" {
		spec, _ := obj.Fields.Get("spec").(map[string]any)
		qos = computePodQOS(spec)
	}
	obj.Fields.Set("status", map[string]any{"phase": "Pending", "qosClass": qos})
}

// qosResources are the resources ComputePodQOS looks at
// (supportedQoSComputeResources).
var qosResources = []string{"cpu", "memory"}

// computePodQOS is ComputePodQOS (pkg/apis/core/helper/qos) on a Pod's
// spec as decoded JSON, after SetDefaults_Pod's and, for pod-level
// resources (the PodLevelResources gate, on by default in v1.34),
// defaultPodRequests' defaulting: BestEffort when no container (or the
// pod level) requests or limits cpu or memory above zero; Guaranteed when
// every container (or the pod level) limits both, and the requests and
// limits summed over the containers are equal resource by resource;
// Burstable otherwise. A quantity that does not parse counts as absent
// (the apiserver's validation would refuse the Pod; gcplay's does not
// look at the spec).
func computePodQOS(spec map[string]any) string {
	requests := map[string]*big.Rat{}
	limits := map[string]*big.Rat{}
	guaranteed := true
	if podRes, ok := spec["resources"].(map[string]any); ok {
		podLimits := resourceList(podRes["limits"])
		if len(podLimits) > 0 {
			addPositive(requests, defaultPodRequests(spec, resourceList(podRes["requests"]), podLimits))
			addPositive(limits, podLimits)
			if !hasPositive(podLimits, "cpu") || !hasPositive(podLimits, "memory") {
				guaranteed = false
			}
		} else {
			addPositive(requests, resourceList(podRes["requests"]))
		}
	} else {
		for _, c := range append(containers(spec, "containers"), containers(spec, "initContainers")...) {
			lim, req := containerResources(c)
			addPositive(requests, req)
			addPositive(limits, lim)
			if !hasPositive(lim, "cpu") || !hasPositive(lim, "memory") {
				guaranteed = false
			}
		}
	}
	if len(requests) == 0 && len(limits) == 0 {
		return "BestEffort"
	}
	if guaranteed {
		for name, req := range requests {
			if lim, ok := limits[name]; !ok || lim.Cmp(req) != 0 {
				guaranteed = false
				break
			}
		}
	}
	if guaranteed && len(requests) == len(limits) {
		return "Guaranteed"
	}
	return "Burstable"
}

// defaultPodRequests is SetDefaults_Pod's defaultPodRequests for cpu and
// memory, when the pod level has limits: a resource the pod level does
// not request is requested as the containers request it in all
// (AggregateContainerRequests), or, when no container names it, as the
// pod level limits it.
func defaultPodRequests(spec map[string]any, podReqs, podLimits map[string]*big.Rat) map[string]*big.Rat {
	out := map[string]*big.Rat{}
	for k, v := range podReqs {
		out[k] = v
	}
	aggr := aggregateContainerRequests(spec)
	for _, name := range qosResources {
		if _, ok := out[name]; ok {
			continue
		}
		if v, ok := aggr[name]; ok {
			out[name] = v
		} else if v, ok := podLimits[name]; ok {
			out[name] = v
		}
	}
	return out
}

// aggregateContainerRequests is AggregateContainerRequests
// (k8s.io/component-helpers/resource) on the spec: the sum of the
// containers' and sidecars' (init containers that restart Always)
// requests, or, where more, what an init container needs while it runs
// beside the sidecars started before it.
func aggregateContainerRequests(spec map[string]any) map[string]*big.Rat {
	sum := map[string]*big.Rat{}
	for _, c := range containers(spec, "containers") {
		_, req := containerResources(c)
		addAll(sum, req)
	}
	sidecars := map[string]*big.Rat{}
	initMax := map[string]*big.Rat{}
	for _, c := range containers(spec, "initContainers") {
		_, req := containerResources(c)
		use := map[string]*big.Rat{}
		if c["restartPolicy"] == "Always" {
			addAll(sum, req)
			addAll(sidecars, req)
			addAll(use, sidecars)
		} else {
			addAll(use, req)
			addAll(use, sidecars)
		}
		maxAll(initMax, use)
	}
	maxAll(sum, initMax)
	return sum
}

func containers(spec map[string]any, field string) []map[string]any {
	list, _ := spec[field].([]any)
	var out []map[string]any
	for _, e := range list {
		if c, ok := e.(map[string]any); ok {
			out = append(out, c)
		}
	}
	return out
}

// containerResources returns a container's cpu and memory limits and
// requests, its requests defaulted to its limits as SetDefaults_Pod does.
func containerResources(c map[string]any) (limits, requests map[string]*big.Rat) {
	res, _ := c["resources"].(map[string]any)
	limits = resourceList(res["limits"])
	requests = resourceList(res["requests"])
	for name, v := range limits {
		if _, ok := requests[name]; !ok {
			requests[name] = v
		}
	}
	return limits, requests
}

// resourceList reads the cpu and memory quantities of a ResourceList.
func resourceList(v any) map[string]*big.Rat {
	m, _ := v.(map[string]any)
	out := map[string]*big.Rat{}
	for _, name := range qosResources {
		if q, ok := parseQuantity(m[name]); ok {
			out[name] = q
		}
	}
	return out
}

func hasPositive(list map[string]*big.Rat, name string) bool {
	v, ok := list[name]
	return ok && v.Sign() > 0
}

// addPositive adds the quantities of from above zero into to
// (processResourceList).
func addPositive(to, from map[string]*big.Rat) {
	for name, v := range from {
		if v.Sign() > 0 {
			add(to, name, v)
		}
	}
}

func addAll(to, from map[string]*big.Rat) {
	for name, v := range from {
		add(to, name, v)
	}
}

func add(to map[string]*big.Rat, name string, v *big.Rat) {
	if cur, ok := to[name]; ok {
		to[name] = new(big.Rat).Add(cur, v)
	} else {
		to[name] = v
	}
}

func maxAll(to, from map[string]*big.Rat) {
	for name, v := range from {
		if cur, ok := to[name]; !ok || v.Cmp(cur) > 0 {
			to[name] = v
		}
	}
}

// quantitySuffixes are resource.Quantity's suffixes: binary (Ki ... Ei)
// and decimal SI (n ... E), as powers of their base.
var quantitySuffixes = map[string]struct{ base, exp int64 }{
	"Ki": {2, 10}, "Mi": {2, 20}, "Gi": {2, 30}, "Ti": {2, 40}, "Pi": {2, 50}, "Ei": {2, 60},
	"n": {10, -9}, "u": {10, -6}, "m": {10, -3}, "": {10, 0},
	"k": {10, 3}, "M": {10, 6}, "G": {10, 9}, "T": {10, 12}, "P": {10, 15}, "E": {10, 18},
}

// parseQuantity reads a resource.Quantity (a string such as "100m",
// "1.5Gi" or "2e3", or a JSON number) exactly.
func parseQuantity(v any) (*big.Rat, bool) {
	var s string
	switch q := v.(type) {
	case string:
		s = q
	case float64:
		s = strconv.FormatFloat(q, 'f', -1, 64)
	default:
		return nil, false
	}
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	num, suffix := s[:i], s[i:]
	if strings.Count(num, ".") > 1 || strings.Trim(num, "+-.") == "" {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return nil, false
	}
	base, exp := int64(10), int64(0)
	if sx, ok := quantitySuffixes[suffix]; ok {
		base, exp = sx.base, sx.exp
	} else if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		e, err := strconv.ParseInt(suffix[1:], 10, 32)
		if err != nil {
			return nil, false
		}
		exp = e
	} else {
		return nil, false
	}
	if exp < -64 || exp > 64 {
		return nil, false
	}
	p := new(big.Int).Exp(big.NewInt(base), big.NewInt(abs64(exp)), nil)
	if exp >= 0 {
		return r.Mul(r, new(big.Rat).SetInt(p)), true
	}
	return r.Quo(r, new(big.Rat).SetInt(p)), true
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
