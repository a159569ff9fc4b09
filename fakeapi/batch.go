package fakeapi

// What the apiserver does to batch/v1 objects on create, beyond storing
// them: the defaults of SetDefaults_Job and SetDefaults_CronJob
// (pkg/apis/batch/v1/defaults.go), and the Job strategy's selector
// generation (generateSelector, pkg/registry/batch/job/strategy.go). The
// Job controller needs the selector, and `kubectl get job -o yaml` shows
// all of them. gcplay applies them on create only: an update or patch is
// stored as given. Status is cleared on create, as PrepareForCreate does.

// Labels the Job strategy puts on a Job's Pod template when it generates
// the selector.
const (
	JobNameLabel             = "batch.kubernetes.io/job-name"
	LegacyJobNameLabel       = "job-name"
	JobControllerUIDLabel    = "batch.kubernetes.io/controller-uid"
	LegacyControllerUIDLabel = "controller-uid"
)

func prepareBatchCreate(obj *Object) {
	if obj.APIVersion != "batch/v1" {
		return
	}
	switch obj.Kind {
	case "Job":
		prepareJob(obj)
	case "CronJob":
		obj.Fields.Delete("status")
		spec := fieldMap(obj, "spec")
		setDefault(spec, "concurrencyPolicy", "Allow")
		setDefault(spec, "suspend", false)
		setDefault(spec, "successfulJobsHistoryLimit", float64(3))
		setDefault(spec, "failedJobsHistoryLimit", float64(1))
	}
}

func prepareJob(obj *Object) {
	obj.Fields.Delete("status")
	spec := fieldMap(obj, "spec")
	_, hasC := spec["completions"]
	_, hasP := spec["parallelism"]
	if !hasC && !hasP {
		spec["completions"] = float64(1)
	}
	setDefault(spec, "parallelism", float64(1))
	setDefault(spec, "backoffLimit", float64(6))
	setDefault(spec, "completionMode", "NonIndexed")
	setDefault(spec, "suspend", false)
	if _, ok := spec["podFailurePolicy"]; ok {
		setDefault(spec, "podReplacementPolicy", "Failed")
	} else {
		setDefault(spec, "podReplacementPolicy", "TerminatingOrFailed")
	}
	setDefault(spec, "manualSelector", false)
	tmpl, _ := spec["template"].(map[string]any)
	if tmpl == nil {
		tmpl = map[string]any{}
		spec["template"] = tmpl
	}
	meta, _ := tmpl["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		tmpl["metadata"] = meta
	}
	labels, _ := meta["labels"].(map[string]any)
	// The Job's own labels default to its template's, before the selector
	// labels are added.
	if len(labels) > 0 && len(obj.Metadata.Labels) == 0 {
		obj.Metadata.Labels = map[string]string{}
		for k, v := range labels {
			if s, ok := v.(string); ok {
				obj.Metadata.Labels[k] = s
			}
		}
	}
	if manual, _ := spec["manualSelector"].(bool); manual {
		return
	}
	if labels == nil {
		labels = map[string]any{}
		meta["labels"] = labels
	}
	for _, k := range []string{LegacyJobNameLabel, JobNameLabel} {
		setDefault(labels, k, obj.Metadata.Name)
	}
	for _, k := range []string{LegacyControllerUIDLabel, JobControllerUIDLabel} {
		setDefault(labels, k, obj.Metadata.UID)
	}
	sel, _ := spec["selector"].(map[string]any)
	if sel == nil {
		sel = map[string]any{}
		spec["selector"] = sel
	}
	ml, _ := sel["matchLabels"].(map[string]any)
	if ml == nil {
		ml = map[string]any{}
		sel["matchLabels"] = ml
	}
	setDefault(ml, JobControllerUIDLabel, obj.Metadata.UID)
}

// fieldMap returns the top-level field name of obj as a map, creating it.
func fieldMap(obj *Object, name string) map[string]any {
	m, _ := obj.Fields.Get(name).(map[string]any)
	if m == nil {
		m = map[string]any{}
		obj.Fields.Set(name, m)
	}
	return m
}

func setDefault(m map[string]any, k string, v any) {
	if cur, ok := m[k]; !ok || cur == nil {
		m[k] = v
	}
}
