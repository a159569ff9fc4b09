package engine

import (
	"container/list"
	"slices"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// Events as client-go's event recorder writes them (tools/record,
// client-go v0.34.4). Every controller of kube-controller-manager makes
// its own EventBroadcaster and a recorder with its component as the
// source; the broadcaster's sink runs each event through an
// EventCorrelator (events_cache.go) before it writes anything:
//
//  1. EventAggregator.EventAggregate: events that differ only in their
//     message (same source, involved object, type, reason and reporting
//     controller) are counted by distinct message; from the 10th distinct
//     one within 10 minutes of the last, the event becomes an aggregate
//     "(combined from similar events): <message>" Event, written under the
//     aggregate key, so that later ones count up that one Event.
//  2. eventLogger.eventObserve: an event whose key (the full event, or the
//     aggregate key) was written before takes that Event's name and
//     firstTimestamp and its count plus one, and is to be PATCHed (count,
//     lastTimestamp, message) instead of created. The count is remembered
//     before the next step, whatever becomes of the write.
//  3. EventSourceObjectSpamFilter.Filter: a token bucket per source,
//     involved object and type (25 tokens, one back every 300 seconds)
//     drops the event when it is empty.
//
// Then recordEvent writes it: a PATCH when its count is above 1, and a
// CREATE when that PATCH finds no Event (404) or for a new one; a
// successful write updates the logger with what the server returned
// (UpdateState). gcplay's requests fail only with apiserver errors, which
// the recorder never retries ("will not retry!").
//
// Upstream the recorder only queues the event and the broadcaster's
// goroutine writes it; gcplay writes it at once, within the controller's
// step, on the virtual clock (every clock the correlator reads is a real
// clock upstream).

// The correlator's defaults (events_cache.go).
const (
	maxLruCacheEntries        = 4096
	defaultAggregateMaxEvents = 10
	defaultAggregateInterval  = 600 * time.Second
	defaultSpamBurst          = 25
)

// defaultSpamQPS is 1/300 as the float32 of CorrelatorOptions.QPS, widened
// to rate.Limit's float64 by flowcontrol's token bucket.
var defaultSpamQPS = float64(float32(1. / 300.))

// aggregatePrefix is EventAggregatorByReasonMessageFunc's prefix.
const aggregatePrefix = "(combined from similar events): "

// eventSources are the event source components of the controllers that
// record Events (their NewRecorder calls), for a restart.
var eventSources = map[string]string{
	ControllerGC:          "garbage-collector-controller",
	ControllerReplicaSet:  "replicaset-controller",
	ControllerDeployment:  "deployment-controller",
	ControllerStatefulSet: "statefulset-controller",
	ControllerDaemonSet:   "daemonset-controller",
	ControllerJob:         "job-controller",
	ControllerCronJob:     "cronjob-controller",
}

// recordEvent is recorderImpl.generateEvent followed by the broadcaster's
// recordToSink: ev (Object, ObjectUID, Type, Reason, Message, Source) is
// made an Event now (makeEvent: firstTimestamp = lastTimestamp = now,
// count 1, reportingComponent = the source) and written through client
// as the source's correlator decides.
func (e *env) recordEvent(client string, ev fakeapi.Event) {
	now := e.clock.Now()
	ev.Time, ev.Last, ev.Count = now, now, 1
	ev.Reporting = ev.Source
	ev.Name = e.api.store.NewEventName(ev.Object.Name)
	c := e.correlators[ev.Source]
	if c == nil {
		c = newEventCorrelator()
		if e.correlators == nil {
			e.correlators = map[string]*eventCorrelator{}
		}
		e.correlators[ev.Source] = c
	}
	out, skip := c.correlate(ev, now, e.api.store.NewEventName)
	if skip {
		e.rec.Note("event %s about %s dropped by the recorder's spam filter (25 per source and object, then one each 5 minutes)",
			ev.Reason, ev.Object)
		return
	}
	written, err := e.writeEvent(client, out)
	if err == nil {
		c.updateState(written)
	}
}

// writeEvent is record/event.go's recordEvent: a PATCH of an Event seen
// before (count above 1), a CREATE of a new one or of one whose Event the
// PATCH did not find.
func (e *env) writeEvent(client string, ev fakeapi.Event) (fakeapi.Event, error) {
	if ev.Count > 1 {
		out, err := e.api.store.PatchEvent(client, ev)
		if !fakeapi.IsNotFound(err) {
			return out, err
		}
	}
	return e.api.store.RecordEvent(client, ev)
}

// forgetEvents throws away the correlator of a restarted controller: a
// new process has a new broadcaster.
func (e *env) forgetEvents(controller string) {
	delete(e.correlators, eventSources[controller])
}

// eventCorrelator is record.EventCorrelator with its default options: the
// aggregator's, the logger's and the spam filter's LRU caches, each of
// maxLruCacheEntries.
type eventCorrelator struct {
	aggregate *lruCache[*aggregateRecord]
	logger    *lruCache[eventLog]
	spam      *lruCache[*spamBucket]
}

func newEventCorrelator() *eventCorrelator {
	return &eventCorrelator{
		aggregate: newLRU[*aggregateRecord](maxLruCacheEntries),
		logger:    newLRU[eventLog](maxLruCacheEntries),
		spam:      newLRU[*spamBucket](maxLruCacheEntries),
	}
}

func (c *eventCorrelator) clone() *eventCorrelator {
	return &eventCorrelator{
		aggregate: c.aggregate.clone(func(r *aggregateRecord) *aggregateRecord {
			return &aggregateRecord{localKeys: slices.Clone(r.localKeys), lastTimestamp: r.lastTimestamp}
		}),
		logger: c.logger.clone(func(l eventLog) eventLog { return l }),
		spam:   c.spam.clone(func(b *spamBucket) *spamBucket { n := *b; return &n }),
	}
}

// correlate is EventCorrelate: aggregate, observe, then filter. newName
// names an aggregate Event. skip says the spam filter dropped the event.
func (c *eventCorrelator) correlate(ev fakeapi.Event, now time.Time, newName func(string) string) (fakeapi.Event, bool) {
	agg, key := c.eventAggregate(ev, now, newName)
	observed := c.eventObserve(agg, key)
	if c.filter(observed, now) {
		return fakeapi.Event{}, true
	}
	return observed, false
}

// eventKey is getEventKey: source, involved object, type, reason and
// message, joined without a separator (source.host and fieldPath, empty
// here, are in it too).
func eventKey(ev fakeapi.Event) string {
	return strings.Join([]string{ev.Source, "", ev.Object.Kind, ev.Object.Namespace, ev.Object.Name, "",
		ev.ObjectUID, ev.Object.APIVersion, ev.Type, ev.Reason, ev.Message}, "")
}

// spamKey is getSpamKey: source, involved object and type.
func spamKey(ev fakeapi.Event) string {
	return strings.Join([]string{ev.Source, "", ev.Object.Kind, ev.Object.Namespace, ev.Object.Name,
		ev.ObjectUID, ev.Object.APIVersion, ev.Type}, "")
}

// aggregateKeys is EventAggregatorByReasonFunc: the aggregate key (source,
// involved object, type, reason, reporting controller and instance) and
// the local key (the message).
func aggregateKeys(ev fakeapi.Event) (string, string) {
	return strings.Join([]string{ev.Source, "", ev.Object.Kind, ev.Object.Namespace, ev.Object.Name,
		ev.ObjectUID, ev.Object.APIVersion, ev.Type, ev.Reason, ev.Reporting, ""}, ""), ev.Message
}

// aggregateRecord is the aggregator's record of a group of similar events:
// the distinct messages seen (kept sorted) and when the last came.
type aggregateRecord struct {
	localKeys     []string
	lastTimestamp time.Time
}

// eventAggregate is EventAggregator.EventAggregate. It returns the event
// to write and the key the logger keeps it under: the event and its full
// key, or from the 10th distinct message an aggregate Event and the
// aggregate key.
func (c *eventCorrelator) eventAggregate(ev fakeapi.Event, now time.Time, newName func(string) string) (fakeapi.Event, string) {
	key := eventKey(ev)
	aggregateKey, localKey := aggregateKeys(ev)
	record, _ := c.aggregate.get(aggregateKey)
	// A record older than the interval (or none: its zero time) starts
	// afresh.
	if record == nil || now.Sub(record.lastTimestamp) > defaultAggregateInterval {
		record = &aggregateRecord{}
	}
	if i, found := slices.BinarySearch(record.localKeys, localKey); !found {
		record.localKeys = slices.Insert(record.localKeys, i, localKey)
	}
	record.lastTimestamp = now
	c.aggregate.add(aggregateKey, record)
	if len(record.localKeys) < defaultAggregateMaxEvents {
		return ev, key
	}
	// Keep the set below the maximum: upstream pops an arbitrary member
	// (sets.String.PopAny, a map's order); gcplay the first in byte order.
	record.localKeys = record.localKeys[1:]
	// The aggregate Event: a new name, count 1, both timestamps now, the
	// prefixed message, and no reporting controller or instance (the copy
	// does not carry them).
	return fakeapi.Event{
		Object:    ev.Object,
		ObjectUID: ev.ObjectUID,
		ObjectRV:  ev.ObjectRV,
		Type:      ev.Type,
		Reason:    ev.Reason,
		Message:   aggregatePrefix + ev.Message,
		Source:    ev.Source,
		Time:      now,
		Last:      now,
		Count:     1,
		Name:      newName(ev.Object.Name),
	}, aggregateKey
}

// eventLog is the logger's record of an Event written (or about to be):
// its count, firstTimestamp and name.
type eventLog struct {
	count          int32
	firstTimestamp time.Time
	name           string
}

// eventObserve is eventLogger.eventObserve: an event whose key the logger
// has seen becomes the next occurrence of that Event (its name and
// firstTimestamp, count plus one: the sink then patches it). The new
// observation is remembered either way, before the spam filter runs.
func (c *eventCorrelator) eventObserve(ev fakeapi.Event, key string) fakeapi.Event {
	if last, ok := c.logger.get(key); ok && last.count > 0 {
		ev.Name = last.name
		ev.Time = last.firstTimestamp
		ev.Count = last.count + 1
	}
	c.logger.add(key, eventLog{count: ev.Count, firstTimestamp: ev.Time, name: ev.Name})
	return ev
}

// updateState is EventCorrelator.UpdateState: after a successful write,
// the logger keeps the server's Event under its full key.
func (c *eventCorrelator) updateState(ev fakeapi.Event) {
	c.logger.add(eventKey(ev), eventLog{count: ev.Count, firstTimestamp: ev.Time, name: ev.Name})
}

// filter is EventSourceObjectSpamFilter.Filter: true (drop) when the
// token bucket of the event's source, object and type is empty.
func (c *eventCorrelator) filter(ev fakeapi.Event, now time.Time) bool {
	key := spamKey(ev)
	b, _ := c.spam.get(key)
	if b == nil {
		b = newSpamBucket(defaultSpamQPS, defaultSpamBurst)
	}
	drop := !b.allow(now)
	c.spam.add(key, b)
	return drop
}

// spamBucket is the token bucket of flowcontrol's passive rate limiter
// (golang.org/x/time/rate's Limiter.AllowN(now, 1)): it starts full, and
// refills limit tokens a second up to burst.
type spamBucket struct {
	limit  float64
	burst  int
	tokens float64
	last   time.Time
}

func newSpamBucket(limit float64, burst int) *spamBucket {
	return &spamBucket{limit: limit, burst: burst, tokens: float64(burst)}
}

// allow takes a token at now if one is there (reserveN with no wait
// allowed): tokens refill for the time since the last token taken,
// capped at burst; a wait that rounds to under a nanosecond counts as
// none, as rate's does.
func (b *spamBucket) allow(now time.Time) bool {
	last := b.last
	if now.Before(last) {
		last = now
	}
	tokens := b.tokens + now.Sub(last).Seconds()*b.limit
	if burst := float64(b.burst); tokens > burst {
		tokens = burst
	}
	tokens--
	var wait time.Duration
	if tokens < 0 {
		wait = time.Duration(float64(time.Second) * (-tokens / b.limit))
	}
	if wait > 0 {
		return false
	}
	b.last, b.tokens = now, tokens
	return true
}

// lruCache is k8s.io/utils/lru's cache: a get or an add makes an entry the
// most recent; an add beyond max entries evicts the least recent.
type lruCache[V any] struct {
	max     int
	order   *list.List // of *lruEntry[V], most recent first
	entries map[string]*list.Element
}

type lruEntry[V any] struct {
	key   string
	value V
}

func newLRU[V any](max int) *lruCache[V] {
	return &lruCache[V]{max: max, order: list.New(), entries: map[string]*list.Element{}}
}

func (c *lruCache[V]) get(key string) (V, bool) {
	if el, ok := c.entries[key]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*lruEntry[V]).value, true
	}
	var zero V
	return zero, false
}

func (c *lruCache[V]) add(key string, v V) {
	if el, ok := c.entries[key]; ok {
		c.order.MoveToFront(el)
		el.Value.(*lruEntry[V]).value = v
		return
	}
	c.entries[key] = c.order.PushFront(&lruEntry[V]{key: key, value: v})
	if c.order.Len() > c.max {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.entries, oldest.Value.(*lruEntry[V]).key)
	}
}

func (c *lruCache[V]) clone(copyValue func(V) V) *lruCache[V] {
	n := newLRU[V](c.max)
	for el := c.order.Back(); el != nil; el = el.Prev() {
		en := el.Value.(*lruEntry[V])
		n.add(en.key, copyValue(en.value))
	}
	return n
}
