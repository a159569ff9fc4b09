package fakeapi

import (
	"fmt"
	"strconv"

	"github.com/gcplay/gcplay/internal/uidmap"
)

// This file holds the store's deterministic generators: UIDs, generated
// name suffixes and Event names. Each one's state lives in the Store and
// is cloned with it, so the same requests always yield the same names.

// newUID returns the next UID from the counter: "uid-0001", "uid-0002",
// ... (wider past 9999), skipping any UID a caller chose itself.
func (s *Store) newUID() string {
	for {
		s.lastUID++
		u := uidmap.Format(s.lastUID)
		if !s.byUID.Has(u) && !s.givenUIDs[u] {
			return u
		}
	}
}

// giveUID notes that a caller chose uid. Only a UID shaped like the
// counter's own ("uid-0042") is kept, since no other can be one the
// counter hands out: a dump's 100,000 UUIDs would fill a map for nothing.
func (s *Store) giveUID(uid string) {
	if _, generated := uidmap.Serial(uid); generated {
		s.givenUIDs[uid] = true
	}
}

// given reports whether uid, the UID of a stored object, was chosen by a
// caller rather than handed out by the counter.
func (s *Store) given(uid string) bool {
	if _, generated := uidmap.Serial(uid); !generated {
		return true
	}
	return s.givenUIDs[uid]
}

// nameAlphabet is the alphabet of generated name suffixes, Kubernetes'
// utilrand alphabet without vowels and confusable characters.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// Generated names follow the apiserver's SimpleNameGenerator: the prefix
// cut to 58 characters, then 5 random characters.
const (
	maxGeneratedPrefix = 58
	generatedSuffixLen = 5
)

// generateName returns prefix plus 5 characters from a xorshift64
// generator whose state is part of the store.
func (s *Store) generateName(prefix string) string {
	if len(prefix) > maxGeneratedPrefix {
		prefix = prefix[:maxGeneratedPrefix]
	}
	b := make([]byte, generatedSuffixLen)
	for i := range b {
		x := s.nameState
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		s.nameState = x
		b[i] = nameAlphabet[x%uint64(len(nameAlphabet))]
	}
	return prefix + string(b)
}

// eventName returns the name of the next Event about an object, as
// client-go's util.GenerateEventName makes it: the object's name, a dot
// and the clock's Unix nanoseconds in hex. The virtual clock stands still
// within a step, so gcplay adds the number of Events named so far: the sum
// only grows, so names stay unique, and they read like a real cluster's.
// A name that is no DNS subdomain (an object name of more than 236
// characters, say) is a random UUID upstream; gcplay makes one of the
// same shape from the counter.
func (s *Store) eventName(involved string) string {
	s.eventCounter++
	name := involved + "." + strconv.FormatUint(uint64(s.clock.Now().UnixNano())+s.eventCounter, 16)
	if len(isDNS1123Subdomain(name)) > 0 {
		name = fmt.Sprintf("00000000-0000-4000-8000-%012x", s.eventCounter)
	}
	return name
}
