// Package fakeapi is gcplay's in-process Kubernetes apiserver: storage
// and request handling for the objects the garbage collector works on,
// following kube-apiserver (v1.34) rule by rule where the garbage collector
// can see the difference. The rules are numbered as in GC-RULES.md.
//
// It is single-threaded and deterministic: no goroutines, no locks, no
// wall clock (time comes from the Clock the store is given, at second
// precision as meta/v1 Time stores it), UIDs from a counter ("uid-0001"),
// resourceVersions from one global counter like an etcd revision,
// generated name suffixes from a seeded generator whose state is part of
// the store, and no map order in any output or decision.
//
// What it models:
//
//   - served kinds and versions (Registry): scope, the per-version default
//     deletion policy (R15), graceful deletion for Pods; an object can be
//     read through any served version of its group/kind, and is stored and
//     watched in the first served one;
//   - create, get, list, update, patch and delete, with Kubernetes' typed
//     errors and wording (StatusError);
//   - metadata validation: names, generateName, ownerReferences (R3),
//     finalizers (R2), the update rules (R4), resourceVersion as an
//     optimistic lock (R10); of a spec, a StatefulSet's and a
//     DaemonSet's as ValidateStatefulSet(Update) and
//     ValidateDaemonSet(Update) check them (apps_validation.go: selector,
//     template labels, strategies, the fields a StatefulSet update may
//     not change; not the Pod template's own rules), and apps/v1's
//     immutable selectors of Deployments and ReplicaSets; a write that
//     leaves the spec as it is (a controller's status) is not checked,
//     and a restore checks only a StatefulSet's retention policy; of a
//     status, only a StatefulSet's counts, when an update changes them
//     (ValidateStatefulSetStatus);
//   - finalizers, the GC finalizers and every DeleteOptions field:
//     propagationPolicy, orphanDependents, gracePeriodSeconds,
//     preconditions and dryRun (R5, R11-R21), and removal when an update
//     empties the finalizers of a deleting object (R9);
//   - JSON merge patches (RFC 7386), and strategic merge patches for what
//     metadata needs (ownerReferences merged by uid, $patch: delete,
//     finalizers merged as a set); other fields of a strategic merge patch
//     merge as in a merge patch;
//   - namespaces: default, kube-system, kube-public and kube-node-lease
//     exist from the start; the NamespaceLifecycle admission checks
//     (creates need an existing namespace whose phase is not Terminating,
//     updates and patches an existing namespace; the first three cannot
//     be deleted); the namespace registry (every
//     namespace gets status.phase Active, spec.finalizers [kubernetes] and
//     the kubernetes.io/metadata.name label; a DELETE marks it Terminating
//     and leaves its content alone; an update keeps spec.finalizers and
//     status; it leaves storage once spec.finalizers and
//     metadata.finalizers are both empty), and its status and finalize
//     subresources (UpdateStatus, Finalize);
//   - DeleteCollection, as the registry does it: each object deleted as by
//     its own DELETE, within one request;
//   - a watch stream of every change and a record of every request, both
//     delivered synchronously and in order;
//   - Kubernetes Events as the garbage collector records them (R60);
//   - fault injection: the next requests of a verb on some objects fail
//     with a chosen reason, changing nothing.
//
// What it does not model:
//
//   - authentication, authorization and RBAC (every client may do
//     everything), and admission webhooks or any admission plugin other
//     than the NamespaceLifecycle checks above (so not
//     OwnerReferencesPermissionEnforcement, R6);
//   - label and field selectors (on list and deletecollection), pagination,
//     watch resumption from a resourceVersion, bookmarks;
//   - server-side apply and managedFields, JSON patch (RFC 6902), the
//     strategic merge directives other than $patch: delete/replace in
//     ownerReferences and $deleteFromPrimitiveList for finalizers, and
//     strategic semantics outside metadata (container lists and the like);
//   - subresources other than a Namespace's status and finalize (no
//     scale, and the status of other kinds is written like any field:
//     UpdateStatus on another kind answers 404);
//   - defaulting, except a StatefulSet's (spec and pod template) and a
//     DaemonSet's (spec) on create, update and patch (apps_defaults.go),
//     and a Job's and CronJob's on create (batch.go); per-kind validation
//     of spec and status beyond the above, label and annotation
//     validation, warnings (a new Pod's status is the pod strategy's:
//     Pending with its QoS class, pod.go);
//   - dryRun on create, update and patch (only DELETE takes options);
//   - the namespace controller: it is a client (package engine); without
//     it a deleted namespace stays Terminating with its content, as on a
//     cluster whose controller manager is down. Finalizing a namespace by
//     hand leaves its objects in storage, as etcd does;
//   - the kubelet: a terminating Pod stays until some client deletes it
//     again with grace period 0;
//   - conversion between versions: all versions of a group/kind share one
//     stored object and differ only in apiVersion.
//
// Error texts a real apiserver would not return (every other message is
// worded as kube-apiserver words it):
//
//   - "injected fault: <reason> on <verb> <object>": fault injection, which
//     a real cluster cannot do;
//   - "the object cannot be written as JSON: ..." and "the body of the
//     request was empty": a Go caller passed a value no HTTP body can carry
//     (a channel in Fields, a nil object);
//   - "gcplay does not model <type> patches" (415) and "gcplay does not
//     model the strategic merge patch directive <d>" (400): JSON patch,
//     apply patches and the rarer strategic directives, which the real
//     apiserver accepts; the message says so rather than pretend;
//   - `metadata.uid: Duplicate value` on create: a UID given in
//     metadata.uid that a stored object holds (see below);
//   - 404 "the server could not find the requested resource" from
//     UpdateStatus or Finalize on a kind other than Namespace, where the
//     real apiserver serves /status for most kinds.
//
// Differences a learner could notice: a UID given in metadata.uid on
// create is kept (scenario files use it for stable UIDs) where the real
// apiserver always assigns one, and a UID held by another stored object is
// refused.
package fakeapi
