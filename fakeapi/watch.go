package fakeapi

import "slices"

// This file holds the store's two outputs besides responses: the watch
// stream (every change, in order) and the request records (every request
// and its answer).

type watcher struct {
	id int
	fn func(WatchEvent)
}

type observer struct {
	id int
	fn func(Request)
	// readsDetail reports whether fn will read the next request's
	// Detail; nil means always.
	readsDetail func() bool
}

// Watch registers fn to be called synchronously with every later change.
// Every watcher sees every ADDED, MODIFIED and DELETED event in Seq order,
// before the request that caused it returns; events caused by requests a
// watcher makes itself are delivered after the current one. A dry run
// produces no event. The returned cancel stops delivery.
func (s *Store) Watch(fn func(WatchEvent)) (cancel func()) {
	if fn == nil {
		return func() {}
	}
	s.nextHook++
	id := s.nextHook
	s.watchers = append(s.watchers, watcher{id: id, fn: fn})
	return func() {
		s.watchers = slices.DeleteFunc(slices.Clone(s.watchers), func(w watcher) bool { return w.id == id })
	}
}

// OnRequest registers fn to be called with every request's record, once
// the request is answered and before its watch events are delivered.
func (s *Store) OnRequest(fn func(Request)) (cancel func()) {
	return s.onRequest(fn, nil)
}

// OnRequestReading is OnRequest for an observer that reads a request's
// Detail only while readsDetail reports true (a nil readsDetail: never).
// A DELETE's Detail is written only for a request some observer will
// read it in, and is "" otherwise: a quiet cascade of 100,000 objects
// sends hundreds of thousands of DELETEs whose options no one reads.
func (s *Store) OnRequestReading(fn func(Request), readsDetail func() bool) (cancel func()) {
	if readsDetail == nil {
		readsDetail = never
	}
	return s.onRequest(fn, readsDetail)
}

func (s *Store) onRequest(fn func(Request), readsDetail func() bool) (cancel func()) {
	if fn == nil {
		return func() {}
	}
	s.nextHook++
	id := s.nextHook
	s.observers = append(s.observers, observer{id: id, fn: fn, readsDetail: readsDetail})
	return func() {
		s.observers = slices.DeleteFunc(slices.Clone(s.observers), func(o observer) bool { return o.id == id })
	}
}

// emit queues a watch event; flush delivers it.
func (s *Store) emit(t EventType, obj, old *Object, rv string) {
	s.seq++
	s.pending = append(s.pending, WatchEvent{Seq: s.seq, Type: t, Object: obj, Old: old, ResourceVersion: rv})
}

// flush delivers queued watch events in order. A request made by a
// watcher queues its events behind the current ones; the outer flush
// delivers them.
func (s *Store) flush() {
	if s.flushing {
		return
	}
	s.flushing = true
	defer func() { s.flushing = false }()
	for i := 0; i < len(s.pending); i++ {
		ev := s.pending[i]
		for _, w := range s.watchers {
			w.fn(ev)
		}
	}
	clear(s.pending)
	s.pending = s.pending[:0]
}

func never() bool { return false }

// detailRead reports whether an observer will read the Detail of the
// request now being handled.
func (s *Store) detailRead() bool {
	for _, o := range s.observers {
		if o.readsDetail == nil || o.readsDetail() {
			return true
		}
	}
	return false
}

// finish completes a request: it fills in the answer, tells the request
// observers, then delivers the request's watch events.
func (s *Store) finish(req *Request, err *StatusError) {
	if err != nil {
		req.Code = err.Code
		req.Reason = err.Reason
		req.Message = err.Message
	}
	for _, o := range s.observers {
		o.fn(*req)
	}
	s.flush()
}
