package engine

import "github.com/gcplay/gcplay/fakeapi"

// The sentences of the records are built here without fmt: a large
// cascade writes several per collected object, and each is copied into
// the world's text arena (see strarena) instead of being a Sprintf with
// boxed arguments and an allocation. The texts are exactly what the
// format strings gave.

// around returns prefix + r.ref() + suffix, carved from the world's text
// arena.
func (e *env) around(prefix string, r objectReference, suffix string) string {
	if !fakeapi.ShowNamespace(r.Namespace) {
		return e.text.Join(prefix, r.Kind, "/", r.Name, suffix)
	}
	return e.text.Join(prefix, r.Kind, "/", r.Namespace, "/", r.Name, suffix)
}

// ref is r.ref(), carved from the world's text arena.
func (e *env) ref(r objectReference) string { return e.around("", r, "") }

// textCache shares sentences that repeat: the 1,000 Pods of one
// ReplicaSet get the same reason and the same note, and each such
// sentence is allocated once. It holds at most textCacheSize sentences,
// and starts again when full.
type textCache struct {
	m map[string]string
	// recent are the sentences returned last: the collector's reason
	// and note for the Pods of one owner alternate, and comparing with
	// them is cheaper than hashing.
	recent [2]string
	// reasons are shared reasons (see reason).
	reasons map[reasonKey]sharedReason
}

const textCacheSize = 1024

// get returns b as a string, the same one as for an earlier equal b.
func (c *textCache) get(b []byte) string {
	for _, s := range c.recent {
		if s == string(b) {
			return s
		}
	}
	s := c.lookup(b)
	c.recent[1], c.recent[0] = c.recent[0], s
	return s
}

func (c *textCache) lookup(b []byte) string {
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

// around is env.around for a sentence that repeats, shared.
func (c *textCache) around(prefix string, r objectReference, suffix string) string {
	var buf [192]byte
	b := append(buf[:0], prefix...)
	b = append(b, r.Kind...)
	b = append(b, '/')
	if fakeapi.ShowNamespace(r.Namespace) {
		b = append(b, r.Namespace...)
		b = append(b, '/')
	}
	b = append(b, r.Name...)
	return c.get(append(b, suffix...))
}

// reasonKey names a reason's sentences that repeat: a form with one
// value, and up to three sentences without values after it.
type reasonKey struct {
	form, arg string
	more      [3]string
}

type sharedReason struct {
	message string
	texts   []Text
}

// reason is r saying form filled with arg, then the sentences more
// (which have no values), shared with an earlier equal reason: the
// objects of one owner get the same sentences, allocated once.
func (c *textCache) reason(r Reason, form, arg string, more ...Text) Reason {
	k := reasonKey{form: form, arg: arg}
	for i, t := range more {
		k.more[i] = t.Form
	}
	s, ok := c.reasons[k]
	if !ok {
		if c.reasons == nil || len(c.reasons) >= textCacheSize {
			c.reasons = make(map[reasonKey]sharedReason)
		}
		ts := make([]Text, 0, 1+len(more))
		ts = append(append(ts, Text{Form: form, Args: []string{arg}}), more...)
		s = sharedReason{message: c.get([]byte(English(ts))), texts: ts[:len(ts):len(ts)]}
		c.reasons[k] = s
	}
	r.Message, r.Texts = s.message, s.texts
	return r
}
