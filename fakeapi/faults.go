package fakeapi

import (
	"slices"
	"strings"
)

// Inject adds a fault: the next f.Times requests (at least one) of f.Verb
// on matching objects fail with f.Reason, and change nothing. Kind matches
// case-insensitively, also through plurals and short names ("po"); an
// empty Kind matches every kind, an empty Name every object, an empty
// Namespace every namespace. Faults are consumed in the order they were
// injected. A reason KnownReason does not know is answered with code 500.
func (s *Store) Inject(f Fault) {
	if f.Times <= 0 {
		f.Times = 1
	}
	s.faults = append(s.faults, f)
}

// Faults returns the faults still pending, in the order they will be used.
func (s *Store) Faults() []Fault { return slices.Clone(s.faults) }

// takeFault consumes the first fault matching a request and returns its
// error, or nil when no fault matches. It marks the request as injected.
func (s *Store) takeFault(req *Request, info KindInfo, namespace, name string) *StatusError {
	for i, f := range s.faults {
		if !strings.EqualFold(f.Verb, req.Verb) || !s.faultKindMatches(f.Kind, info) {
			continue
		}
		if f.Namespace != "" && f.Namespace != namespace {
			continue
		}
		if f.Name != "" && f.Name != name {
			continue
		}
		s.faults[i].Times--
		if s.faults[i].Times <= 0 {
			s.faults = slices.Delete(s.faults, i, i+1)
		}
		target := info.Kind
		if name != "" {
			target = RefString(info.Kind, namespace, name)
		}
		req.Injected = true
		return NewError(f.Reason, "injected fault: %s on %s %s", f.Reason, req.Verb, target)
	}
	return nil
}

func (s *Store) faultKindMatches(kind string, info KindInfo) bool {
	if kind == "" || strings.EqualFold(kind, info.Kind) {
		return true
	}
	k, err := s.reg.ByKind(kind)
	return err == nil && k.Kind == info.Kind
}
