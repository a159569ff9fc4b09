package fakeapi

import "strings"

// The defaults the apiserver writes into an apps/v1 StatefulSet or
// DaemonSet: its generated SetObjectDefaults_StatefulSet and
// SetObjectDefaults_DaemonSet (pkg/apis/apps/v1/zz_generated.defaults.go),
// which run SetDefaults_StatefulSet / SetDefaults_DaemonSet
// (pkg/apis/apps/v1/defaults.go) and, for a StatefulSet, the Pod
// template's defaults (SetDefaults_PodSpec, SetDefaults_Container and the
// rest of pkg/apis/core/v1/defaults.go), plus what the typed encoding
// always writes (an empty struct is not omitted: a container's
// `resources: {}`) and the nested claims' apiVersion and kind
// (Convert_apps_StatefulSetSpec_To_v1_StatefulSetSpec). The apiserver
// defaults every object it decodes, so these run on create, update and
// patch. `kubectl get -o yaml` shows them, the StatefulSet controller
// copies the template into its Pods, and the revision hash is taken over
// the defaulted template (HashControllerRevision).
//
// A DaemonSet gets its spec's defaults but not its template's: gcplay's
// DaemonSet revision names hash the template's JSON, not the printed Go
// struct upstream's ComputeHash hashes, and would only move from one name
// a cluster never gives to another.
//
// Left out: quantities are stored as written (SetDefaults_ResourceList
// rounds them to milli-units and the encoding writes their canonical
// form), and a status is not written on create.

// defaultAppsObject applies the defaults of obj's kind, if it is a
// StatefulSet or DaemonSet of apps/v1 (its stored version). The spec is
// replaced by a defaulted copy: obj's maps may be shared with a stored
// object (a patch starts from one).
func defaultAppsObject(obj *Object) {
	if obj.APIVersion != "apps/v1" {
		return
	}
	var spec map[string]any
	switch obj.Kind {
	case "StatefulSet", "DaemonSet":
		switch v := obj.Fields.Get("spec").(type) {
		case nil:
			spec = map[string]any{}
		case map[string]any:
			spec, _ = copyJSONValue(v).(map[string]any)
		default:
			return
		}
	default:
		return
	}
	if obj.Kind == "StatefulSet" {
		defaultStatefulSetSpec(spec)
	} else {
		defaultDaemonSetSpec(spec)
	}
	obj.Fields.Set("spec", spec)
}

// defaultStatefulSetSpec is SetObjectDefaults_StatefulSet on the spec:
// SetDefaults_StatefulSet (with the MaxUnavailableStatefulSet gate off,
// as in v1.34, and StatefulSetAutoDeletePVC on), then the template's
// Pod spec, then the claim templates.
func defaultStatefulSetSpec(spec map[string]any) {
	setDefaultString(spec, "podManagementPolicy", "OrderedReady")
	if us := childMap(spec, "updateStrategy"); us != nil {
		// A rollingUpdate is made only when the type was empty: a
		// RollingUpdate without one keeps none, and so no partition.
		if stringValue(us["type"]) == "" {
			us["type"] = "RollingUpdate"
			setDefault(us, "rollingUpdate", map[string]any{})
		}
		if us["type"] == "RollingUpdate" {
			if ru, ok := us["rollingUpdate"].(map[string]any); ok {
				setDefault(ru, "partition", float64(0))
			}
		}
	}
	if p := childMap(spec, "persistentVolumeClaimRetentionPolicy"); p != nil {
		setDefaultString(p, "whenDeleted", "Retain")
		setDefaultString(p, "whenScaled", "Retain")
	}
	setDefault(spec, "replicas", float64(1))
	setDefault(spec, "revisionHistoryLimit", float64(10))
	// serviceName has no omitempty in v1.34: the encoding writes "".
	setDefault(spec, "serviceName", "")
	if tmpl := childMap(spec, "template"); tmpl != nil {
		childMap(tmpl, "metadata")
		if ps := childMap(tmpl, "spec"); ps != nil {
			defaultPodSpec(ps)
		}
	}
	for _, t := range mapsOf(spec["volumeClaimTemplates"]) {
		t["apiVersion"] = "v1"
		t["kind"] = "PersistentVolumeClaim"
		childMap(t, "metadata")
		// SetDefaults_PersistentVolumeClaim, SetDefaults_PersistentVolumeClaimSpec.
		if st := childMap(t, "status"); st != nil {
			setDefaultString(st, "phase", "Pending")
		}
		if s := childMap(t, "spec"); s != nil {
			childMap(s, "resources")
			setDefault(s, "volumeMode", "Filesystem")
		}
	}
}

// defaultDaemonSetSpec is SetDefaults_DaemonSet.
func defaultDaemonSetSpec(spec map[string]any) {
	if us := childMap(spec, "updateStrategy"); us != nil {
		setDefaultString(us, "type", "RollingUpdate")
		if us["type"] == "RollingUpdate" {
			if ru := childMap(us, "rollingUpdate"); ru != nil {
				setDefault(ru, "maxUnavailable", float64(1))
				setDefault(ru, "maxSurge", float64(0))
			}
		}
	}
	setDefault(spec, "revisionHistoryLimit", float64(10))
}

// defaultPodSpec is what SetObjectDefaults_StatefulSet does to the
// template's Pod spec: SetDefaults_PodSpec, then each volume, init
// container and container.
func defaultPodSpec(ps map[string]any) {
	setDefaultString(ps, "dnsPolicy", "ClusterFirst")
	setDefaultString(ps, "restartPolicy", "Always")
	setDefault(ps, "securityContext", map[string]any{})
	setDefault(ps, "terminationGracePeriodSeconds", float64(30))
	setDefaultString(ps, "schedulerName", "default-scheduler")
	for _, v := range mapsOf(ps["volumes"]) {
		defaultVolume(v)
	}
	for _, c := range mapsOf(ps["initContainers"]) {
		defaultContainer(c)
	}
	for _, c := range mapsOf(ps["containers"]) {
		defaultContainer(c)
	}
}

// volumeSources are the fields of a VolumeSource: a volume with none of
// them is an emptyDir (SetDefaults_Volume).
var volumeSources = []string{
	"hostPath", "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "secret", "nfs", "iscsi",
	"glusterfs", "persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs", "flocker", "downwardAPI", "fc",
	"azureFile", "configMap", "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk", "projected",
	"portworxVolume", "scaleIO", "storageos", "csi", "ephemeral", "image",
}

// defaultVolume is SetDefaults_Volume and the defaults of each volume
// source (SetDefaults_SecretVolumeSource and the like; the mode 420 is
// 0644).
func defaultVolume(v map[string]any) {
	found := false
	for _, s := range volumeSources {
		if v[s] != nil {
			found = true
			break
		}
	}
	if !found {
		v["emptyDir"] = map[string]any{}
	}
	if m, ok := v["hostPath"].(map[string]any); ok {
		setDefault(m, "type", "")
	}
	for _, s := range []string{"secret", "configMap"} {
		if m, ok := v[s].(map[string]any); ok {
			setDefault(m, "defaultMode", float64(420))
		}
	}
	if m, ok := v["iscsi"].(map[string]any); ok {
		setDefaultString(m, "iscsiInterface", "default")
	}
	if m, ok := v["rbd"].(map[string]any); ok {
		setDefaultString(m, "pool", "rbd")
		setDefaultString(m, "user", "admin")
		setDefaultString(m, "keyring", "/etc/ceph/keyring")
	}
	if m, ok := v["downwardAPI"].(map[string]any); ok {
		setDefault(m, "defaultMode", float64(420))
		defaultFieldRefs(m["items"])
	}
	if m, ok := v["azureDisk"].(map[string]any); ok {
		setDefault(m, "cachingMode", "ReadWrite")
		setDefault(m, "fsType", "ext4")
		setDefault(m, "readOnly", false)
		setDefault(m, "kind", "Shared")
	}
	if m, ok := v["projected"].(map[string]any); ok {
		setDefault(m, "defaultMode", float64(420))
		for _, src := range mapsOf(m["sources"]) {
			if d, ok := src["downwardAPI"].(map[string]any); ok {
				defaultFieldRefs(d["items"])
			}
			if t, ok := src["serviceAccountToken"].(map[string]any); ok {
				setDefault(t, "expirationSeconds", float64(3600))
			}
		}
	}
	if m, ok := v["scaleIO"].(map[string]any); ok {
		setDefaultString(m, "storageMode", "ThinProvisioned")
		setDefaultString(m, "fsType", "xfs")
	}
	if m, ok := v["ephemeral"].(map[string]any); ok {
		if t, ok := m["volumeClaimTemplate"].(map[string]any); ok {
			if s := childMap(t, "spec"); s != nil {
				setDefault(s, "volumeMode", "Filesystem")
			}
		}
	}
}

// defaultFieldRefs is SetDefaults_ObjectFieldSelector on each item's
// fieldRef.
func defaultFieldRefs(items any) {
	for _, it := range mapsOf(items) {
		if f, ok := it["fieldRef"].(map[string]any); ok {
			setDefaultString(f, "apiVersion", "v1")
		}
	}
}

// defaultContainer is SetDefaults_Container and the container's generated
// defaults: port protocols, env field references, probes and lifecycle
// handlers; and `resources: {}`, which the typed encoding always writes.
func defaultContainer(c map[string]any) {
	if stringValue(c["imagePullPolicy"]) == "" {
		if imageTag(stringValue(c["image"])) == "latest" {
			c["imagePullPolicy"] = "Always"
		} else {
			c["imagePullPolicy"] = "IfNotPresent"
		}
	}
	setDefaultString(c, "terminationMessagePath", "/dev/termination-log")
	setDefaultString(c, "terminationMessagePolicy", "File")
	for _, p := range mapsOf(c["ports"]) {
		setDefaultString(p, "protocol", "TCP")
	}
	for _, e := range mapsOf(c["env"]) {
		if vf, ok := e["valueFrom"].(map[string]any); ok {
			if f, ok := vf["fieldRef"].(map[string]any); ok {
				setDefaultString(f, "apiVersion", "v1")
			}
			if f, ok := vf["fileKeyRef"].(map[string]any); ok {
				setDefault(f, "optional", false)
			}
		}
	}
	childMap(c, "resources")
	for _, k := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		if p, ok := c[k].(map[string]any); ok {
			defaultProbe(p)
		}
	}
	if l, ok := c["lifecycle"].(map[string]any); ok {
		for _, k := range []string{"postStart", "preStop"} {
			if h, ok := l[k].(map[string]any); ok {
				if g, ok := h["httpGet"].(map[string]any); ok {
					defaultHTTPGet(g)
				}
			}
		}
	}
}

// defaultProbe is SetDefaults_Probe and its handler's defaults.
func defaultProbe(p map[string]any) {
	setDefaultNumber(p, "timeoutSeconds", 1)
	setDefaultNumber(p, "periodSeconds", 10)
	setDefaultNumber(p, "successThreshold", 1)
	setDefaultNumber(p, "failureThreshold", 3)
	if g, ok := p["httpGet"].(map[string]any); ok {
		defaultHTTPGet(g)
	}
	if g, ok := p["grpc"].(map[string]any); ok {
		setDefault(g, "service", "")
	}
}

// defaultHTTPGet is SetDefaults_HTTPGetAction.
func defaultHTTPGet(g map[string]any) {
	setDefaultString(g, "path", "/")
	setDefaultString(g, "scheme", "HTTP")
}

// imageTag is the tag parsers.ParseImageName finds: the one after the
// last ':' of the name's last path component, "latest" when there is
// neither a tag nor a digest, "" for a digest alone or no image at all
// (which does not parse). gcplay does not check the rest of the
// reference grammar.
func imageTag(image string) string {
	if image == "" {
		return ""
	}
	name, _, digest := strings.Cut(image, "@")
	if i := strings.LastIndexByte(name, ':'); i > strings.LastIndexByte(name, '/') {
		return name[i+1:]
	}
	if digest {
		return ""
	}
	return "latest"
}

// childMap returns m[k] as a map, making an empty one when there is
// none, or nil when m[k] is something else.
func childMap(m map[string]any, k string) map[string]any {
	switch v := m[k].(type) {
	case nil:
		c := map[string]any{}
		m[k] = c
		return c
	case map[string]any:
		return v
	}
	return nil
}

// mapsOf returns the maps of a list.
func mapsOf(v any) []map[string]any {
	l, _ := v.([]any)
	var out []map[string]any
	for _, e := range l {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func stringValue(v any) string { s, _ := v.(string); return s }

// setDefaultString sets a string field that is unset, null or empty: an
// empty string is the Go zero value upstream's defaulting tests.
func setDefaultString(m map[string]any, k, v string) {
	if stringValue(m[k]) == "" {
		if _, isString := m[k].(string); isString || m[k] == nil {
			m[k] = v
		}
	}
}

// setDefaultNumber sets a number field that is unset, null or 0 (a
// non-pointer int32 upstream).
func setDefaultNumber(m map[string]any, k string, v float64) {
	if n, ok := numberValue(m[k]); (ok && n == 0) || m[k] == nil {
		m[k] = v
	}
}
