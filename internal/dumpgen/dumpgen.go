// Package dumpgen writes cluster dumps shaped as `kubectl get -o yaml` (or
// -o json) prints them: a v1 List of one Deployment owning ReplicaSets
// owning Pods, with the server-set fields kubectl shows. The Deployment is
// paused and recreates (with many ReplicaSets live, a rolling one would
// scale them to its surge) and every
// ReplicaSet has the Pods it wants, so the world is at rest: no controller has anything to do until something is deleted. The
// benchmarks read them; `go run ./internal/dumpgen/gendump` writes one.
package dumpgen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"sigs.k8s.io/yaml"
)

// Options shape the dump.
type Options struct {
	// ReplicaSets owned by the Deployment, and Pods owned by each.
	ReplicaSets, Pods int
	// JSON writes `kubectl get -o json`'s form instead of YAML.
	JSON bool
	// Kubectl writes the multi-line strings kubectl prints in a real
	// cluster's dump: the Deployment's last-applied-configuration
	// annotation as a literal block (|) and a condition message folded
	// over two lines, and on every tenth Pod a Ready condition whose
	// quoted message is folded over two lines.
	Kubectl bool
}

// total is the Deployment's replicas: every ReplicaSet's Pods. The
// ReplicaSets' desired-replicas annotations say the same, so the paused
// Deployment has no scaling to do.
func (o Options) total() int { return o.ReplicaSets * o.Pods }

// Objects returns how many objects the dump holds.
func (o Options) Objects() int { return 1 + o.ReplicaSets*(1+o.Pods) }

const (
	depUID = "3c5d8f2e-0000-4000-8000-000000000000"
	ts     = "2026-01-01T00:00:00Z"
)

func rsUID(i int) string     { return fmt.Sprintf("7a1b2c3d-%04x-4000-8000-000000000000", i) }
func podUID(i, j int) string { return fmt.Sprintf("9e8f7a6b-%04x-4000-8000-%012x", i, j) }
func rsName(i int) string    { return fmt.Sprintf("web-%08x", 0x5d8c7f00+i) }
func podName(i, j int) string {
	return fmt.Sprintf("%s-%05x", rsName(i), j)
}

// Write writes the dump to w.
func Write(w io.Writer, o Options) error {
	if o.JSON {
		// kubectl get -o json: the same List, indented by four spaces.
		var y bytes.Buffer
		b := bufio.NewWriter(&y)
		writeYAML(b, o)
		b.Flush()
		j, err := yaml.YAMLToJSON(y.Bytes())
		if err != nil {
			return err
		}
		var out bytes.Buffer
		if err := json.Indent(&out, j, "", "    "); err != nil {
			return err
		}
		out.WriteByte('\n')
		_, err = w.Write(out.Bytes())
		return err
	}
	b := bufio.NewWriterSize(w, 1<<16)
	writeYAML(b, o)
	return b.Flush()
}

func writeYAML(b *bufio.Writer, o Options) {
	rv := 1000
	b.WriteString("apiVersion: v1\nitems:\n")
	applied, depCond := "", ""
	if o.Kubectl {
		applied = `      kubectl.kubernetes.io/last-applied-configuration: |
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"labels":{"app":"web"},"name":"web","namespace":"default"},"spec":{"paused":true,"replicas":` + fmt.Sprint(o.total()) + `,"selector":{"matchLabels":{"app":"web"}},"strategy":{"type":"Recreate"},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx:1.27","name":"nginx"}]}}}}
`
		depCond = `    conditions:
    - lastTransitionTime: "` + ts + `"
      lastUpdateTime: "` + ts + `"
      message: Deployment does not have minimum availability because its Pods are
        not all ready yet, a message kubectl folds over two lines
      reason: MinimumReplicasUnavailable
      status: "False"
      type: Available
`
	}
	fmt.Fprintf(b, `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    annotations:
      deployment.kubernetes.io/revision: "%d"
%s    creationTimestamp: "%s"
    generation: 1
    labels:
      app: web
    name: web
    namespace: default
    resourceVersion: "%d"
    uid: %s
  spec:
    paused: true
    progressDeadlineSeconds: 600
    replicas: %d
    revisionHistoryLimit: %d
    selector:
      matchLabels:
        app: web
    strategy:
      type: Recreate
    template:
      metadata:
        labels:
          app: web
      spec:
        containers:
        - image: nginx:1.27
          imagePullPolicy: IfNotPresent
          name: nginx
          resources: {}
          terminationMessagePath: /dev/termination-log
          terminationMessagePolicy: File
        dnsPolicy: ClusterFirst
        restartPolicy: Always
        schedulerName: default-scheduler
        securityContext: {}
        terminationGracePeriodSeconds: 30
  status:
%s    observedGeneration: 1
    replicas: %d
`, o.ReplicaSets, applied, ts, rv, depUID, o.total(), o.ReplicaSets, depCond, o.total())
	for i := 0; i < o.ReplicaSets; i++ {
		rv++
		replicas := o.Pods
		fmt.Fprintf(b, `- apiVersion: apps/v1
  kind: ReplicaSet
  metadata:
    annotations:
      deployment.kubernetes.io/desired-replicas: "%d"
      deployment.kubernetes.io/max-replicas: "%d"
      deployment.kubernetes.io/revision: "%d"
    creationTimestamp: "%s"
    generation: 1
    labels:
      app: web
      pod-template-hash: %s
    name: %s
    namespace: default
    ownerReferences:
    - apiVersion: apps/v1
      blockOwnerDeletion: true
      controller: true
      kind: Deployment
      name: web
      uid: %s
    resourceVersion: "%d"
    uid: %s
  spec:
    replicas: %d
    selector:
      matchLabels:
        app: web
        pod-template-hash: %s
    template:
      metadata:
        labels:
          app: web
          pod-template-hash: %s
      spec:
        containers:
        - image: nginx:1.%d
          imagePullPolicy: IfNotPresent
          name: nginx
          resources: {}
          terminationMessagePath: /dev/termination-log
          terminationMessagePolicy: File
        dnsPolicy: ClusterFirst
        restartPolicy: Always
        schedulerName: default-scheduler
        securityContext: {}
        terminationGracePeriodSeconds: 30
  status:
    fullyLabeledReplicas: %d
    observedGeneration: 1
    replicas: %d
`, o.total(), o.total()+(o.total()+3)/4, i+1, ts, hash(i), rsName(i), depUID, rv, rsUID(i), replicas, hash(i), hash(i), i, o.Pods, o.Pods)
		for j := 0; j < o.Pods; j++ {
			rv++
			fmt.Fprintf(b, `- apiVersion: v1
  kind: Pod
  metadata:
    creationTimestamp: "%s"
    generateName: %s-
    labels:
      app: web
      pod-template-hash: %s
    name: %s
    namespace: default
    ownerReferences:
    - apiVersion: apps/v1
      blockOwnerDeletion: true
      controller: true
      kind: ReplicaSet
      name: %s
      uid: %s
    resourceVersion: "%d"
    uid: %s
  spec:
    containers:
    - image: nginx:1.%d
      imagePullPolicy: IfNotPresent
      name: nginx
      resources: {}
    nodeName: node-%d
    restartPolicy: Always
    terminationGracePeriodSeconds: 30
  status:
%s    phase: Running
    podIP: 10.%d.%d.%d
    qosClass: BestEffort
    startTime: "%s"
`, ts, rsName(i), hash(i), podName(i, j), rsName(i), rsUID(i), rv, podUID(i, j), i, j%8, podCond(o, i, j), i%250, j/250%250, j%250, ts)
		}
	}
	b.WriteString("kind: List\nmetadata:\n  resourceVersion: \"\"\n")
}

// podCond is the conditions of Pod j of ReplicaSet i, with -kubectl on
// every tenth Pod: a Ready condition whose message kubectl folds.
func podCond(o Options, i, j int) string {
	if !o.Kubectl || j%10 != 0 {
		return ""
	}
	ip := fmt.Sprintf("10.%d.%d.%d", i%250, j/250%250, j%250)
	return `    conditions:
    - lastProbeTime: null
      lastTransitionTime: "` + ts + `"
      message: 'containers with unready status: [nginx]; the readiness probe failed: Get
        "http://` + ip + `:80/healthz": dial tcp ` + ip + `:80: connect: connection refused'
      reason: ContainersNotReady
      status: "False"
      type: Ready
`
}

func hash(i int) string { return fmt.Sprintf("%08x", 0x5d8c7f00+i) }
