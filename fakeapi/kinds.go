package fakeapi

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Scope says whether objects of a kind live in a namespace.
type Scope string

// The two scopes of a kind.
const (
	Namespaced Scope = "Namespaced"
	Cluster    Scope = "Cluster"
)

// GCPolicy is a kind's default garbage-collection policy: what the
// apiserver does when a DELETE names no policy (R13, R15).
type GCPolicy string

// The default policies a registry strategy can declare.
const (
	// PolicyNone is a kind with no GC strategy: background.
	PolicyNone GCPolicy = ""
	// PolicyOrphan adds the orphan finalizer by default.
	PolicyOrphan GCPolicy = "OrphanDependents"
	// PolicyDeleteDependents is background cascading deletion.
	PolicyDeleteDependents GCPolicy = "DeleteDependents"
	// PolicyUnsupported never adds a GC finalizer (core Event).
	PolicyUnsupported GCPolicy = "Unsupported"
)

// KindInfo describes one served apiVersion/kind.
type KindInfo struct {
	APIVersion string
	Kind       string
	// Resource is the lower-case plural, as in a REST path.
	Resource string
	// ShortNames are kubectl's short names for the kind.
	ShortNames []string
	Scope      Scope
	// DefaultPolicy is the strategy's DefaultGarbageCollectionPolicy for
	// requests made through this apiVersion.
	DefaultPolicy GCPolicy
	// Graceful kinds (Pod) take the graceful-deletion path (R16-R18).
	Graceful bool
	// Custom kinds were declared by a scenario; like custom resources they
	// do not accept strategic merge patches (R53).
	Custom bool
}

// Group returns the API group of the kind ("" for core).
func (k KindInfo) Group() string { g, _ := SplitAPIVersion(k.APIVersion); return g }

// Namespaced reports whether objects of the kind live in a namespace.
func (k KindInfo) Namespaced() bool { return k.Scope == Namespaced }

// SplitAPIVersion splits "group/version" (or "version" for core) into its parts.
func SplitAPIVersion(apiVersion string) (group, version string) {
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}

// Registry is the set of kinds the fake apiserver serves, like the
// apiserver's discovery plus REST mapping. It is read-only once built.
type Registry struct {
	kinds []KindInfo          // in registration order
	byAV  map[string]int      // "apiVersion|Kind" -> index
	names map[string][]string // lower-case kind, plural or short name -> Kind names
}

// NewRegistry returns a registry of the built-in kinds: those current
// Kubernetes serves, with their real scope and default deletion policy.
func NewRegistry() *Registry {
	r := &Registry{byAV: map[string]int{}, names: map[string][]string{}}
	for _, k := range builtinKinds {
		r.mustAdd(k)
	}
	return r
}

// builtinKinds follows the kube-apiserver's served versions (v1.34) and each
// registry strategy's DefaultGarbageCollectionPolicy (R15).
var builtinKinds = []KindInfo{
	{APIVersion: "v1", Kind: "Pod", Resource: "pods", ShortNames: []string{"po"}, Scope: Namespaced, Graceful: true},
	{APIVersion: "v1", Kind: "ConfigMap", Resource: "configmaps", ShortNames: []string{"cm"}, Scope: Namespaced},
	{APIVersion: "v1", Kind: "Secret", Resource: "secrets", Scope: Namespaced},
	{APIVersion: "v1", Kind: "Service", Resource: "services", ShortNames: []string{"svc"}, Scope: Namespaced},
	{APIVersion: "v1", Kind: "ServiceAccount", Resource: "serviceaccounts", ShortNames: []string{"sa"}, Scope: Namespaced},
	{APIVersion: "v1", Kind: "PersistentVolumeClaim", Resource: "persistentvolumeclaims", ShortNames: []string{"pvc"}, Scope: Namespaced},
	{APIVersion: "v1", Kind: "Endpoints", Resource: "endpoints", ShortNames: []string{"ep"}, Scope: Namespaced},
	{APIVersion: "v1", Kind: "ReplicationController", Resource: "replicationcontrollers", ShortNames: []string{"rc"}, Scope: Namespaced, DefaultPolicy: PolicyOrphan},
	{APIVersion: "v1", Kind: "Event", Resource: "events", ShortNames: []string{"ev"}, Scope: Namespaced, DefaultPolicy: PolicyUnsupported},
	{APIVersion: "v1", Kind: "Namespace", Resource: "namespaces", ShortNames: []string{"ns"}, Scope: Cluster},
	{APIVersion: "v1", Kind: "Node", Resource: "nodes", ShortNames: []string{"no"}, Scope: Cluster},
	{APIVersion: "v1", Kind: "PersistentVolume", Resource: "persistentvolumes", ShortNames: []string{"pv"}, Scope: Cluster},
	{APIVersion: "apps/v1", Kind: "Deployment", Resource: "deployments", ShortNames: []string{"deploy"}, Scope: Namespaced, DefaultPolicy: PolicyDeleteDependents},
	{APIVersion: "apps/v1", Kind: "ReplicaSet", Resource: "replicasets", ShortNames: []string{"rs"}, Scope: Namespaced, DefaultPolicy: PolicyDeleteDependents},
	{APIVersion: "apps/v1", Kind: "StatefulSet", Resource: "statefulsets", ShortNames: []string{"sts"}, Scope: Namespaced, DefaultPolicy: PolicyDeleteDependents},
	{APIVersion: "apps/v1", Kind: "DaemonSet", Resource: "daemonsets", ShortNames: []string{"ds"}, Scope: Namespaced, DefaultPolicy: PolicyDeleteDependents},
	{APIVersion: "apps/v1", Kind: "ControllerRevision", Resource: "controllerrevisions", Scope: Namespaced},
	{APIVersion: "batch/v1", Kind: "Job", Resource: "jobs", Scope: Namespaced, DefaultPolicy: PolicyOrphan},
	{APIVersion: "batch/v1", Kind: "CronJob", Resource: "cronjobs", ShortNames: []string{"cj"}, Scope: Namespaced},
	{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role", Resource: "roles", Scope: Namespaced},
	{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding", Resource: "rolebindings", Scope: Namespaced},
	{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole", Resource: "clusterroles", Scope: Cluster},
	{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRoleBinding", Resource: "clusterrolebindings", Scope: Cluster},
	{APIVersion: "coordination.k8s.io/v1", Kind: "Lease", Resource: "leases", Scope: Namespaced},
}

func (r *Registry) mustAdd(k KindInfo) {
	if err := r.Add(k); err != nil {
		panic(err)
	}
}

// Add registers a kind. It fails when the apiVersion/kind is already served
// or the definition is incomplete.
func (r *Registry) Add(k KindInfo) error {
	if k.Kind == "" || k.APIVersion == "" {
		return fmt.Errorf("a kind needs apiVersion and kind")
	}
	if _, v := SplitAPIVersion(k.APIVersion); v == "" {
		return fmt.Errorf("apiVersion %q has no version", k.APIVersion)
	}
	if k.Scope != Namespaced && k.Scope != Cluster {
		return fmt.Errorf("scope %q must be Namespaced or Cluster", k.Scope)
	}
	key := k.APIVersion + "|" + k.Kind
	if _, ok := r.byAV[key]; ok {
		return fmt.Errorf("%s %s is already served", k.APIVersion, k.Kind)
	}
	if k.Resource == "" {
		k.Resource = strings.ToLower(k.Kind) + "s"
	}
	// Every served version of one group/kind must agree on scope.
	g := k.Group()
	for _, o := range r.kinds {
		if o.Kind == k.Kind && o.Group() == g && o.Scope != k.Scope {
			return fmt.Errorf("%s %s: scope %s disagrees with %s", k.APIVersion, k.Kind, k.Scope, o.APIVersion)
		}
	}
	r.byAV[key] = len(r.kinds)
	r.kinds = append(r.kinds, k)
	for _, n := range append([]string{strings.ToLower(k.Kind), k.Resource}, k.ShortNames...) {
		n = strings.ToLower(n)
		if !slices.Contains(r.names[n], k.Kind) {
			r.names[n] = append(r.names[n], k.Kind)
		}
	}
	return nil
}

// Clone returns an independent copy, so a world can add custom kinds.
func (r *Registry) Clone() *Registry {
	c := &Registry{kinds: slices.Clone(r.kinds), byAV: make(map[string]int, len(r.byAV)), names: make(map[string][]string, len(r.names))}
	for k, v := range r.byAV {
		c.byAV[k] = v
	}
	for k, v := range r.names {
		c.names[k] = slices.Clone(v)
	}
	return c
}

// Lookup returns the kind served at apiVersion, like a REST mapping.
func (r *Registry) Lookup(apiVersion, kind string) (KindInfo, bool) {
	i, ok := r.byAV[apiVersion+"|"+kind]
	if !ok {
		return KindInfo{}, false
	}
	return r.kinds[i], true
}

// KindCache remembers the last kinds looked up in one registry, for a
// caller that resolves the same few apiVersion/kind pairs over and over
// (every request does, and so does the garbage collector). A registry
// never changes or removes a kind once added, so a remembered answer
// stays right; a miss is not remembered. The zero value is ready to use
// and must be used with one registry only.
type KindCache struct {
	entries [2]struct {
		apiVersion, kind string
		info             *KindInfo
	}
	next int
}

// Lookup is reg.Lookup(apiVersion, kind), remembered.
func (c *KindCache) Lookup(reg *Registry, apiVersion, kind string) (KindInfo, bool) {
	for i := range c.entries {
		if e := &c.entries[i]; e.info != nil && e.apiVersion == apiVersion && e.kind == kind {
			return *e.info, true
		}
	}
	i, ok := reg.byAV[apiVersion+"|"+kind]
	if !ok {
		return KindInfo{}, false
	}
	e := &c.entries[c.next]
	c.next = (c.next + 1) % len(c.entries)
	e.apiVersion, e.kind, e.info = apiVersion, kind, &reg.kinds[i]
	return reg.kinds[i], true
}

// ByKind returns the preferred (first registered) served version of a
// kind name, matching case-insensitively and accepting plurals and kubectl
// short names ("po", "deploy", "replicasets").
func (r *Registry) ByKind(name string) (KindInfo, error) {
	kinds := r.names[strings.ToLower(name)]
	switch len(kinds) {
	case 0:
		return KindInfo{}, fmt.Errorf("the server doesn't have a resource type %q", name)
	case 1:
	default:
		return KindInfo{}, fmt.Errorf("resource type %q is ambiguous: %s", name, strings.Join(kinds, ", "))
	}
	for _, k := range r.kinds {
		if k.Kind == kinds[0] {
			return k, nil
		}
	}
	return KindInfo{}, fmt.Errorf("the server doesn't have a resource type %q", name)
}

// Kinds returns every served kind, sorted by kind then apiVersion.
func (r *Registry) Kinds() []KindInfo {
	out := slices.Clone(r.kinds)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].APIVersion < out[j].APIVersion
	})
	return out
}

// Names returns every kind name, plural and short name the registry
// accepts, sorted (for completion).
func (r *Registry) Names() []string {
	out := make([]string, 0, len(r.names))
	for n := range r.names {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// GroupKindVersions returns the served apiVersions of the group/kind of
// (apiVersion, kind), in registration order. It is empty when the group
// does not serve the kind at all.
func (r *Registry) GroupKindVersions(apiVersion, kind string) []string {
	g, _ := SplitAPIVersion(apiVersion)
	var out []string
	for _, k := range r.kinds {
		if k.Kind == kind && k.Group() == g {
			out = append(out, k.APIVersion)
		}
	}
	return out
}

// firstGroupKindVersion is GroupKindVersions' first apiVersion, found
// without building the list; ok is false when there is none.
func (r *Registry) firstGroupKindVersion(apiVersion, kind string) (string, bool) {
	g, _ := SplitAPIVersion(apiVersion)
	for _, k := range r.kinds {
		if k.Kind == kind && k.Group() == g {
			return k.APIVersion, true
		}
	}
	return "", false
}
