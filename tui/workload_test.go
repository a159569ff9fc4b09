package tui

import (
	"fmt"
	"strings"
	"testing"
)

// replicas is an object's spec.replicas (-1 when it has none).
func replicas(t *testing.T, m *Model, kind, name string) int {
	t.Helper()
	o := lookup(m, kind, name)
	if o == nil {
		t.Fatalf("%s/%s is missing", kind, name)
	}
	spec, _ := o.Fields.Get("spec").(map[string]any)
	f, ok := spec["replicas"].(float64)
	if !ok {
		return -1
	}
	return int(f)
}

// podsOf counts the Pods in storage whose name starts with prefix.
func podsOf(m *Model, prefix string) int {
	n := 0
	for _, o := range m.s.world().Store().Objects() {
		if o.Kind == "Pod" && strings.HasPrefix(o.Metadata.Name, prefix) && o.Metadata.DeletionTimestamp == nil {
			n++
		}
	}
	return n
}

// TestScaleCommand: scale writes spec.replicas as kubectl scale does and
// the controllers follow; misuse changes nothing and names what is wrong.
func TestScaleCommand(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	runLine(t, m, "scale deploy/web --replicas=1")
	if got := replicas(t, m, "deploy", "web"); got != 1 {
		t.Fatalf("after scale deploy/web --replicas=1: spec.replicas %d; message %q", got, m.msg)
	}
	if !strings.Contains(m.msg, "Deployment/web scaled from 3 to 1 replicas") {
		t.Errorf("message %q does not say what was scaled", m.msg)
	}
	runLine(t, m, "run")
	if n := podsOf(m, "web-"); n != 1 {
		t.Errorf("after run: %d running web Pods, want 1", n)
	}
	// kubectl's word order and the two-word reference work too.
	runLine(t, m, "scale --replicas 2 deployment web")
	if got := replicas(t, m, "deploy", "web"); got != 2 {
		t.Errorf("scale --replicas 2 deployment web: spec.replicas %d; message %q", got, m.msg)
	}
	runLine(t, m, "scale sts/db --replicas=0 --current-replicas=1")
	if got := replicas(t, m, "sts", "db"); got != 0 {
		t.Errorf("scale sts/db with a precondition that holds: spec.replicas %d; message %q", got, m.msg)
	}
	for _, c := range []struct{ line, want string }{
		{"scale deploy/web", "--replicas=COUNT flag is required"},
		{"scale deploy/web --replicas=-1", "not -1"},
		{"scale deploy/web --replicas=many", "not many"},
		{"scale cm/ingress-a --replicas=1", "a ConfigMap has no scale subresource"},
		{"scale deploy/nope --replicas=1", "Deployment/nope not found"},
		{"scale deploy/web --replicas=1 --current-replicas=5", "Expected replicas to be 5, was 2"},
		{"scale deploy/web --replicas=1 --replica=2", "did you mean --replicas"},
		{"scale deploy/web sts/db --replicas=1", "scale takes one object"},
	} {
		v := m.s.version
		runLine(t, m, c.line)
		if m.msgKind != msgErr || !strings.Contains(m.msg, c.want) {
			t.Errorf("%s: message %q, want an error containing %q", c.line, m.msg, c.want)
		}
		if m.s.version != v {
			t.Errorf("%s: the world changed", c.line)
		}
	}
}

// TestRolloutCommand: rollout undo is the rolloutUndo step (kubectl's
// rollback), to the previous revision or a given one; rollout history
// names the revisions it can go to.
func TestRolloutCommand(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	runLine(t, m, "rollout undo deploy/web")
	if m.msgKind != msgErr || !strings.Contains(m.msg, `no rollout history found for deployment "web"`) {
		t.Errorf("undo with one revision: message %q, want kubectl's no-history error", m.msg)
	}
	runLine(t, m, `patch deploy/web '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:2"}]}}}}'`)
	runLine(t, m, "run")
	runLine(t, m, "rollout history deploy/web")
	if !strings.Contains(m.msg, "(nginx) · 2 ") || !strings.Contains(m.msg, "(nginx:2) ← current") {
		t.Errorf("rollout history: message %q, want revisions 1 (nginx) and 2 (nginx:2, current)", m.msg)
	}
	runLine(t, m, "rollout undo deploy/web")
	if !strings.Contains(m.msg, "rolled back: Deployment/web has its pod template") || !strings.Contains(m.msg, "(revision 1)") {
		t.Fatalf("rollout undo: message %q", m.msg)
	}
	runLine(t, m, "run")
	if got := templateImages(lookup(m, "deploy", "web")); got != "nginx" {
		t.Errorf("after the undo the template's image is %q, want nginx", got)
	}
	runLine(t, m, "rollout history deploy/web")
	if !strings.Contains(m.msg, "3 ") || !strings.Contains(m.msg, "(nginx) ← current") {
		t.Errorf("history after the undo: %q, want revision 1 brought back as 3", m.msg)
	}
	runLine(t, m, "rollout undo deploy/web --to-revision=2")
	if !strings.Contains(m.msg, "(revision 2)") {
		t.Errorf("rollout undo --to-revision=2: message %q", m.msg)
	}
	for _, c := range []struct{ line, want string }{
		{"rollout undo deploy/web --to-revision=9", "unable to find specified revision 9 in history"},
		{"rollout undo deploy/web --to-revision=x", "--to-revision must be a revision number"},
		{"rollout undoo deploy/web", "did you mean undo"},
		{"rollout undo cm/ingress-a", "takes a Deployment, StatefulSet or DaemonSet, not a ConfigMap"},
		{"rollout undo deploy/nope", "Deployment/nope not found"},
		{"rollout history deploy/web --to-revision=1", "takes no --to-revision"},
		{"rollout undo", "missing arguments"},
	} {
		v := m.s.version
		runLine(t, m, c.line)
		if m.msgKind != msgErr || !strings.Contains(m.msg, c.want) {
			t.Errorf("%s: message %q, want an error containing %q", c.line, m.msg, c.want)
		}
		if m.s.version != v {
			t.Errorf("%s: the world changed", c.line)
		}
	}
}

// TestRolloutStatefulSet: rollout history and undo of a StatefulSet go
// through the ControllerRevisions it controls, as kubectl's
// StatefulSetHistoryViewer and StatefulSetRollbacker do.
func TestRolloutStatefulSet(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	runLine(t, m, "rollout history sts/db")
	if !strings.Contains(m.msg, "1 db-") || !strings.Contains(m.msg, "(postgres:17) ← current") {
		t.Errorf("rollout history sts/db: message %q, want revision 1 (postgres:17, current)", m.msg)
	}
	v := m.s.version
	runLine(t, m, "rollout undo sts/db")
	if m.msgKind != msgErr || !strings.Contains(m.msg, "no last revision to roll back to") || m.s.version != v {
		t.Errorf("undo with one revision: message %q, want kubectl's error and no change", m.msg)
	}
	runLine(t, m, `patch sts/db '{"spec":{"template":{"spec":{"containers":[{"name":"postgres","image":"postgres:18"}]}}}}'`)
	runLine(t, m, "run")
	runLine(t, m, "rollout history sts/db")
	if !strings.Contains(m.msg, "(postgres:17) · 2 ") || !strings.Contains(m.msg, "(postgres:18) ← current") {
		t.Errorf("rollout history after the patch: message %q, want revisions 1 and 2 (current)", m.msg)
	}
	runLine(t, m, "rollout undo sts/db")
	if !strings.Contains(m.msg, "rolled back: StatefulSet/db has the pod template of ControllerRevision/db-") || !strings.Contains(m.msg, "(revision 1)") ||
		!strings.Contains(m.msg, "runs the StatefulSet controller") {
		t.Fatalf("rollout undo sts/db: message %q", m.msg)
	}
	if got := templateImages(lookup(m, "sts", "db")); got != "postgres:17" {
		t.Errorf("after the undo the template's image is %q, want postgres:17", got)
	}
	runLine(t, m, "run")
	runLine(t, m, "rollout history sts/db")
	if !strings.Contains(m.msg, "2 db-") || !strings.Contains(m.msg, "3 db-") || !strings.Contains(m.msg, "(postgres:17) ← current") {
		t.Errorf("history after the undo: %q, want revision 1 renumbered 3 and current", m.msg)
	}
	runLine(t, m, "rollout undo sts/db --to-revision=3")
	if m.msgKind == msgErr || !strings.Contains(m.msg, "skipped rollback (current template already matches revision 3)") {
		t.Errorf("undo to the running revision: message %q, want kubectl's skip", m.msg)
	}
	runLine(t, m, "rollout undo sts/db --to-revision=1")
	if m.msgKind != msgErr || !strings.Contains(m.msg, "unable to find specified revision 1 in history") {
		t.Errorf("undo to a renumbered revision: message %q, want kubectl's not-found error", m.msg)
	}
}

// TestRolloutErrorsInChinese: kubectl's rollback errors have words in zh.
func TestRolloutErrorsInChinese(t *testing.T) {
	m, err := New(Options{Width: 120, Height: 40, NoColor: true, Theme: ThemeDark, Lang: "zh", Files: NewMemFiles(nil)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ line, want string }{
		{"rollout undo sts/db", "没有可以回滚到的上一个修订版本"},
		{"rollout undo deploy/web", `找不到 Deployment "web" 的上线历史`},
		{"rollout undo deploy/web --to-revision=7", "在历史中找不到指定的修订版本 7"},
	} {
		runLine(t, m, c.line)
		if m.msgKind != msgErr || !strings.Contains(m.msg, c.want) {
			t.Errorf("%s: message %q, want %q", c.line, m.msg, c.want)
		}
	}
}

// TestWorkloadCommandsInChinese: the commands' own words come from the
// catalog.
func TestWorkloadCommandsInChinese(t *testing.T) {
	m, err := New(Options{Width: 120, Height: 40, NoColor: true, Theme: ThemeDark, Lang: "zh", Files: NewMemFiles(nil)})
	if err != nil {
		t.Fatal(err)
	}
	runLine(t, m, "scale cm/ingress-a --replicas=1")
	if !strings.Contains(m.msg, "ConfigMap 没有 scale 子资源") {
		t.Errorf("zh: message %q", m.msg)
	}
	runLine(t, m, "scale deploy/web --replicas=1")
	if !strings.Contains(m.msg, "Deployment/web 的副本数从 3 改为 1") {
		t.Errorf("zh: message %q", m.msg)
	}
	runLine(t, m, `patch deploy/web '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:2"}]}}}}'`)
	runLine(t, m, "run")
	runLine(t, m, "rollout undo deploy/web")
	if !strings.Contains(m.msg, "（修订版本 1）的 Pod 模板和注解") || strings.Contains(m.msg, "pod template") {
		t.Errorf("zh: the rollback's message %q is not all Chinese", m.msg)
	}
}

// TestWorkloadCompletion: tab offers only what each argument takes.
func TestWorkloadCompletion(t *testing.T) {
	m, _ := newTest(t, 120, 40)
	press(t, m, ":")
	typeText(t, m, "sca")
	press(t, m, "tab")
	if got := string(m.cmd.buf); got != "scale " {
		t.Fatalf("sca<tab> = %q", got)
	}
	typeText(t, m, "s")
	press(t, m, "tab")
	if got := string(m.cmd.buf); got != "scale sts/db " {
		t.Errorf("scale s<tab> = %q, want the StatefulSet (the Secret does not scale)", got)
	}
	press(t, m, "esc")
	press(t, m, ":")
	typeText(t, m, "rollout u")
	press(t, m, "tab")
	press(t, m, "tab")
	if got := strings.Join(m.compl.cands, " "); got != "deploy/web sts/db" {
		t.Errorf("rollout undo <tab> offers %q, want the Deployment and the StatefulSet (the ConfigMaps do not roll out)", got)
	}
	press(t, m, "esc")
	press(t, m, ":")
	typeText(t, m, "rollout undo d")
	press(t, m, "tab")
	if got := string(m.cmd.buf); got != "rollout undo deploy/web " {
		t.Errorf("rollout undo d<tab> = %q", got)
	}
	// --to-revision offers the Deployment's revisions.
	press(t, m, "esc")
	runLine(t, m, `patch deploy/web '{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:2"}]}}}}'`)
	runLine(t, m, "run")
	press(t, m, ":")
	typeText(t, m, "rollout undo deploy/web --to-revision ")
	press(t, m, "tab")
	if got := strings.Join(m.compl.cands, " "); got != "1 2" {
		t.Errorf("--to-revision <tab> offers %q, want 1 2", got)
	}
}

// stsScaled is a StatefulSet whose claims go with the Pods a scale-down
// removes (whenScaled: Delete).
const stsScaled = `name: sts-scaled
controllers: [garbagecollector, statefulset, kubelet]
objects:
  - apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: db}
    spec:
      replicas: 3
      serviceName: db
      persistentVolumeClaimRetentionPolicy: {whenScaled: Delete}
      selector: {matchLabels: {app: db}}
      template:
        metadata: {labels: {app: db}}
        spec:
          terminationGracePeriodSeconds: 5
          containers: [{name: postgres, image: "postgres:17"}]
      volumeClaimTemplates:
        - metadata: {name: data}
          spec:
            accessModes: [ReadWriteOnce]
            resources: {requests: {storage: 1Gi}}
steps:
  - settle: {}
`

// TestScaleStatefulSetClaims: scaling a whenScaled: Delete set down makes
// each leaving Pod the owner of its claim, shown under the Pod, and the
// collector deletes the claims once the Pods are gone; scaling up makes
// fresh ones. The screen halfway down is a golden view.
func TestScaleStatefulSetClaims(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m, err := New(Options{Width: size[0], Height: size[1], NoColor: true, Theme: ThemeDark,
			Files: NewMemFiles(map[string][]byte{"sts.yaml": []byte(stsScaled)})})
		if err != nil {
			t.Fatal(err)
		}
		runLine(t, m, "load sts.yaml")
		claims := func() []string {
			var out []string
			for _, o := range m.s.world().Store().Objects() {
				if o.Kind == "PersistentVolumeClaim" {
					out = append(out, o.Metadata.Name)
				}
			}
			return out
		}
		if got := strings.Join(claims(), " "); got != "data-db-0 data-db-1 data-db-2" {
			t.Fatalf("claims at the start: %s", got)
		}
		runLine(t, m, "scale sts/db --replicas=1")
		press(t, m, "s", "s", "s")
		c := lookup(m, "pvc", "data-db-2")
		if c == nil || len(c.Metadata.OwnerReferences) != 1 || c.Metadata.OwnerReferences[0].Name != "db-2" {
			t.Fatalf("after the scale-down's first sync data-db-2 is not owned by Pod/db-2: %+v", c)
		}
		m.selectUID(c.Metadata.UID)
		m.refresh()
		golden(t, fmt.Sprintf("scale-sts-claims-%dx%d", size[0], size[1]), screen(m))
		runLine(t, m, "run")
		if got := strings.Join(claims(), " "); got != "data-db-0" {
			t.Errorf("claims after the scale-down settled: %s, want only data-db-0", got)
		}
		runLine(t, m, "scale sts/db --replicas=3 --current-replicas=1")
		runLine(t, m, "run")
		if got := strings.Join(claims(), " "); got != "data-db-0 data-db-1 data-db-2" {
			t.Errorf("claims after scaling up again: %s", got)
		}
	}
}
