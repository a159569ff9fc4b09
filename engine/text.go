package engine

import "strings"

// The sentences of the records are built here without fmt: a large
// cascade writes several per collected object, and each is one string
// concatenation (one allocation) instead of a Sprintf and its boxed
// arguments. The texts are exactly what the format strings gave.

// ref is r.ref(), carved from the world's text arena.
func (e *env) ref(r objectReference) string {
	if r.Namespace == "" || r.Namespace == "default" {
		return e.text.Join(r.Kind, "/", r.Name)
	}
	return e.text.Join(r.Kind, "/", r.Namespace, "/", r.Name)
}

// around is the package's around, carved from the world's text arena.
func (e *env) around(prefix string, r objectReference, suffix string) string {
	if r.Namespace == "" || r.Namespace == "default" {
		return e.text.Join(prefix, r.Kind, "/", r.Name, suffix)
	}
	return e.text.Join(prefix, r.Kind, "/", r.Namespace, "/", r.Name, suffix)
}

// around returns prefix + r.ref() + suffix, in one allocation.
func around(prefix string, r objectReference, suffix string) string {
	if r.Namespace == "" || r.Namespace == "default" {
		return join(prefix, r.Kind, "/", r.Name, suffix)
	}
	return prefix + r.Kind + "/" + r.Namespace + "/" + r.Name + suffix
}

// join is a + b + c + d + e, built in a buffer of the exact size (the
// runtime's general concatenation costs about as much again).
func join(a, b, c, d, e string) string {
	var s strings.Builder
	s.Grow(len(a) + len(b) + len(c) + len(d) + len(e))
	s.WriteString(a)
	s.WriteString(b)
	s.WriteString(c)
	s.WriteString(d)
	s.WriteString(e)
	return s.String()
}

// textCache shares sentences that repeat: the 1,000 Pods of one
// ReplicaSet get the same reason and the same note, and each such
// sentence is allocated once. It holds at most textCacheSize sentences,
// and starts again when full.
type textCache struct{ m map[string]string }

const textCacheSize = 1024

// get returns b as a string, the same one as for an earlier equal b.
func (c *textCache) get(b []byte) string {
	if s, ok := c.m[string(b)]; ok {
		return s
	}
	if c.m == nil || len(c.m) >= textCacheSize {
		c.m = make(map[string]string)
	}
	s := string(b)
	c.m[s] = s
	return s
}

// around is the package's around, shared.
func (c *textCache) around(prefix string, r objectReference, suffix string) string {
	var buf [192]byte
	b := append(buf[:0], prefix...)
	b = append(b, r.Kind...)
	b = append(b, '/')
	if r.Namespace != "" && r.Namespace != "default" {
		b = append(b, r.Namespace...)
		b = append(b, '/')
	}
	b = append(b, r.Name...)
	return c.get(append(b, suffix...))
}
