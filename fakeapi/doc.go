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
//     optimistic lock (R10);
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
//     (creates need an existing, non-terminating namespace; the first three
//     cannot be deleted);
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
//   - label and field selectors, pagination, watch resumption from a
//     resourceVersion, bookmarks, DeleteCollection;
//   - server-side apply and managedFields, JSON patch (RFC 6902), the
//     strategic merge directives other than $patch: delete/replace in
//     ownerReferences and $deleteFromPrimitiveList for finalizers, and
//     strategic semantics outside metadata (container lists and the like);
//   - subresources (status, scale): status is written like any field;
//   - defaulting and per-kind validation of spec and status (only metadata
//     is validated), label and annotation validation, warnings;
//   - dryRun on create, update and patch (only DELETE takes options);
//   - the namespace controller: deleting a namespace that still holds
//     objects is refused instead of emptying it, and spec.finalizers of
//     namespaces are not modelled;
//   - the kubelet: a terminating Pod stays until some client deletes it
//     again with grace period 0;
//   - conversion between versions: all versions of a group/kind share one
//     stored object and differ only in apiVersion.
//
// Differences a learner could notice: a UID given in metadata.uid on
// create is kept (scenario files use it for stable UIDs) where the real
// apiserver always assigns one, and a UID held by another stored object is
// refused; field error values that the apiserver prints with pointer
// addresses are printed with the pointed-to values.
package fakeapi
