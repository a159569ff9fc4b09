package engine

// The sentences of the records are built here without fmt: a large
// cascade writes several per collected object, and each is one string
// concatenation (one allocation) instead of a Sprintf and its boxed
// arguments. The texts are exactly what the format strings gave.

// refString is fakeapi.RefString: "Kind/name" for objects in "default"
// and cluster-scoped objects, "Kind/namespace/name" otherwise.
func refString(kind, namespace, name string) string {
	if namespace == "" || namespace == "default" {
		return kind + "/" + name
	}
	return kind + "/" + namespace + "/" + name
}

// around returns prefix + r.ref() + suffix, in one allocation.
func around(prefix string, r objectReference, suffix string) string {
	if r.Namespace == "" || r.Namespace == "default" {
		return prefix + r.Kind + "/" + r.Name + suffix
	}
	return prefix + r.Kind + "/" + r.Namespace + "/" + r.Name + suffix
}
