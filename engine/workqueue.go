package engine

import (
	"container/heap"
	"math"
	"sort"
	"time"
)

// Rate-limiter settings of client-go's DefaultTypedControllerRateLimiter
// (R62): the maximum of a per-item exponential backoff and a global token
// bucket.
const (
	backoffBase  = 5 * time.Millisecond
	backoffMax   = 1000 * time.Second
	bucketQPS    = 10.0
	bucketBurst  = 100.0
	bucketWindow = time.Second
)

// workqueue is a rate-limiting work queue with client-go semantics, on the
// virtual clock: an item is queued at most once while waiting (dirty set),
// an item taken by Get is "processing" until Done, and re-adds made while it
// is processing take effect at Done. Rate-limited adds wait in a delay list
// until their due time. The world is the only caller; nothing here blocks.
type workqueue[T comparable] struct {
	name string
	// queue holds the ready items from head on: Get moves head rather
	// than reslicing, so the array is reused once the queue drains.
	queue []T
	head  int
	// queuedStates holds, beside queue, the state of each queued item in
	// a queue that keeps states: an item is queued while it is dirty, so
	// its state is neither released nor reused meanwhile, and Get finds it
	// without a lookup. (The kubelet's queue holds 100,000 Pods as a
	// large world is deleted; a lookup in a map that size is a cache
	// miss.)
	queuedStates []*itemState[T]
	// got and gotState are the item Get last took from a queue that keeps
	// states, and its state, until Done: a worker ends the item it took,
	// and Done then finds the state without a lookup. The item is
	// processing meanwhile, so its state stays its own.
	got      T
	gotState *itemState[T]
	// An item's marks, dirty and processing, are two bits of a flag
	// byte: the item's own (flagsOf, for graph nodes and events), or
	// else its entry in states, which also holds its waiting entry, so
	// that each call finds all an item's state with one lookup.
	flagsOf                 func(T) *uint8
	dirtyBit, processingBit uint8
	states                  itemStates[T]
	// waiting is a min-heap of delayed items by (due, seq); an item's
	// entry is found through its state, or in waitingAt for items with
	// flags of their own, so an item waits at most once. nwaiting counts
	// the items waiting: the heap also holds stale entries (see waitHeap).
	waiting   waitHeap[T]
	nwaiting  int
	waitingAt map[T]*waitingItem[T]
	failures  map[T]int
	bucket    tokenBucket
	seq       int
	// onAdd, when set, is told about every Add and AddAfter (for records).
	onAdd func(item T, after time.Duration)
	// baseBackoff is the per-item backoff of an item's first failure; 0
	// means client-go's default (backoffBase). maxBackoff caps it; 0
	// means client-go's default (backoffMax). The namespace controller's
	// queue uses 60 s, the Job controller's 1 s to 60 s.
	baseBackoff, maxBackoff time.Duration
	// noBucket leaves out the token bucket: the queue is rate-limited by
	// the per-item backoff alone (the Job controller's queues).
	noBucket bool
}

type waitingItem[T comparable] struct {
	item T
	due  time.Duration
	seq  int
	// st is the item's state in a queue that keeps states (nil in one
	// whose items carry flags).
	st *itemState[T]
	// done is set once the item left the heap (promoted).
	done bool
}

// waitHeap is a binary min-heap of waiting items by (due, seq). Each
// entry carries the key it is ordered by, so that sifting compares
// entries of the array and never follows a pointer: the kubelet's heap
// holds 100,000 Pods as a large world is deleted, and reading an item
// per comparison was a cache miss each. An item whose due time moves
// earlier gets a new entry; the old one is stale (its key no longer the
// item's, or the item done) and is dropped when it reaches the top.
// Live entries keep their (due, seq) unique, so items leave in the
// order a heap fixed in place gives.
type waitHeap[T comparable] []waitEntry[T]

type waitEntry[T comparable] struct {
	due time.Duration
	seq int
	e   *waitingItem[T]
}

func (a waitEntry[T]) before(b waitEntry[T]) bool {
	if a.due != b.due {
		return a.due < b.due
	}
	return a.seq < b.seq
}

// live reports whether the entry still stands for its item.
func (a waitEntry[T]) live() bool { return !a.e.done && a.e.due == a.due }

func (h *waitHeap[T]) push(e *waitingItem[T]) {
	*h = append(*h, waitEntry[T]{due: e.due, seq: e.seq, e: e})
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s[i].before(s[parent]) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

// pop removes the top entry.
func (h *waitHeap[T]) pop() {
	s := *h
	n := len(s) - 1
	s[0] = s[n]
	s[n] = waitEntry[T]{}
	*h = s[:n]
	h.down(0)
}

// down moves the entry at i down to its place.
func (h waitHeap[T]) down(i int) {
	s, n := h, len(h)
	for {
		least := i
		if l := 2*i + 1; l < n && s[l].before(s[least]) {
			least = l
		}
		if r := 2*i + 2; r < n && s[r].before(s[least]) {
			least = r
		}
		if least == i {
			return
		}
		s[i], s[least] = s[least], s[i]
		i = least
	}
}

// top returns the first live entry's item, dropping stale entries above
// it, or nil when nothing waits.
func (h *waitHeap[T]) top() *waitingItem[T] {
	for len(*h) > 0 {
		if t := (*h)[0]; t.live() {
			return t.e
		}
		h.pop()
	}
	return nil
}

// tokenBucket is golang.org/x/time/rate's limiter as the default controller
// rate limiter uses it (10 qps, burst 100), with reservations on the
// virtual clock.
type tokenBucket struct {
	tokens float64
	last   time.Duration
}

// The bits of node.queued and graphEvent.queued: the item is in the
// dirty or the processing set of a queue.
const (
	dirtyInAttemptToDelete uint8 = 1 << iota
	processingInAttemptToDelete
	dirtyInAttemptToOrphan
	processingInAttemptToOrphan
	dirtyInGraphChanges
	processingInGraphChanges
)

// newNodeQueue returns a queue of graph nodes whose dirty and processing
// sets are bits of node.queued.
func newNodeQueue(name string, dirty, processing uint8) *workqueue[*node] {
	return newFlaggedQueue(name, func(n *node) *uint8 { return &n.queued }, dirty, processing)
}

// newGraphChanges returns the graphChanges queue, whose dirty and
// processing sets are bits of graphEvent.queued.
func newGraphChanges() *workqueue[*graphEvent] {
	return newFlaggedQueue(QueueGraphChanges, func(e *graphEvent) *uint8 { return &e.queued }, dirtyInGraphChanges, processingInGraphChanges)
}

// newFlaggedQueue returns a queue whose dirty and processing sets are the
// given bits of each item's flag byte.
func newFlaggedQueue[T comparable](name string, flags func(T) *uint8, dirty, processing uint8) *workqueue[T] {
	q := newWorkqueue[T](name)
	q.flagsOf, q.dirtyBit, q.processingBit = flags, dirty, processing
	return q
}

// The bits of an itemState's flags.
const (
	dirtyItem uint8 = 1 << iota
	processingItem
)

func newWorkqueue[T comparable](name string) *workqueue[T] {
	return &workqueue[T]{
		name:          name,
		dirtyBit:      dirtyItem,
		processingBit: processingItem,
		waitingAt:     map[T]*waitingItem[T]{},
		failures:      map[T]int{},
		bucket:        tokenBucket{tokens: bucketBurst},
	}
}

// Add queues item unless it is already queued; an item being processed is
// marked dirty and queued again at Done.
func (q *workqueue[T]) Add(item T) {
	if q.onAdd != nil {
		q.onAdd(item, 0)
	}
	q.add(item)
}

func (q *workqueue[T]) add(item T) {
	if q.flagsOf != nil {
		q.mark(item, q.flagsOf(item), nil)
		return
	}
	st := q.states.make(item)
	q.mark(item, &st.flags, st)
}

// mark marks item, whose flag byte is f, dirty, and queues it unless it
// was already dirty or is being processed. st is the item's state in a
// queue that keeps states (f is then &st.flags), nil in one whose items
// carry flags.
func (q *workqueue[T]) mark(item T, f *uint8, st *itemState[T]) {
	if *f&q.dirtyBit != 0 {
		return
	}
	*f |= q.dirtyBit
	if *f&q.processingBit != 0 {
		return
	}
	q.push(item, st)
}

// push appends item, with its state st in a queue that keeps states, to
// the queue. The array doubles when full: append grows a large one by a
// quarter, and a cascade that queues 100,000 Pods copied the queue some
// thirty times.
func (q *workqueue[T]) push(item T, st *itemState[T]) {
	if len(q.queue) == cap(q.queue) {
		grown := make([]T, len(q.queue), max(2*cap(q.queue), 64))
		copy(grown, q.queue)
		q.queue = grown
	}
	q.queue = append(q.queue, item)
	if q.flagsOf == nil {
		if len(q.queuedStates) == cap(q.queuedStates) {
			grown := make([]*itemState[T], len(q.queuedStates), cap(q.queue))
			copy(grown, q.queuedStates)
			q.queuedStates = grown
		}
		q.queuedStates = append(q.queuedStates, st)
	}
}

// Len returns the number of items ready to be taken.
func (q *workqueue[T]) Len() int { return len(q.queue) - q.head }

// Get takes the front item and marks it processing.
func (q *workqueue[T]) Get() (T, bool) {
	var zero T
	if q.Len() == 0 {
		return zero, false
	}
	item := q.queue[q.head]
	q.queue[q.head] = zero
	var st *itemState[T]
	if q.flagsOf == nil {
		st = q.queuedStates[q.head] // a queued item is dirty: it has one
		q.queuedStates[q.head] = nil
	}
	q.head++
	switch {
	case q.head == len(q.queue):
		q.queue, q.head = q.queue[:0], 0
		q.queuedStates = q.queuedStates[:0]
	case q.head >= 1024 && 2*q.head >= len(q.queue):
		// Move the rest to the front, so the array does not grow forever.
		n := copy(q.queue, q.queue[q.head:])
		clear(q.queue[n:])
		q.queue = q.queue[:n]
		if q.flagsOf == nil {
			copy(q.queuedStates, q.queuedStates[q.head:])
			clear(q.queuedStates[n:])
			q.queuedStates = q.queuedStates[:n]
		}
		q.head = 0
	}
	var f *uint8
	if q.flagsOf != nil {
		f = q.flagsOf(item)
	} else {
		f = &st.flags
		q.got, q.gotState = item, st
	}
	*f = *f&^q.dirtyBit | q.processingBit
	return item, true
}

// Done ends processing of item, re-queueing it if it was added meanwhile.
func (q *workqueue[T]) Done(item T) {
	var st *itemState[T]
	var f *uint8
	if q.flagsOf != nil {
		f = q.flagsOf(item)
	} else {
		if q.gotState != nil && item == q.got {
			st = q.gotState
		} else if st = q.states.get(item); st == nil {
			return // never taken: nothing to end
		}
		var zero T
		q.got, q.gotState = zero, nil
		f = &st.flags
	}
	*f &^= q.processingBit
	if *f&q.dirtyBit != 0 {
		q.push(item, st)
		return
	}
	if st != nil {
		q.states.release(item, st)
	}
}

// AddAfter queues item once the virtual clock reaches now+d. An item that
// is already waiting keeps the earlier of the two due times.
func (q *workqueue[T]) AddAfter(item T, d, now time.Duration) {
	if q.onAdd != nil {
		q.onAdd(item, d)
	}
	if d <= 0 {
		q.add(item)
		return
	}
	due := now + d
	var st *itemState[T]
	e, ok := (*waitingItem[T])(nil), false
	if q.flagsOf != nil {
		e, ok = q.waitingAt[item]
	} else {
		st = q.states.make(item)
		e, ok = st.wait, st.wait != nil
	}
	if ok {
		if due < e.due {
			e.due = due
			q.waiting.push(e) // the entry before is stale now
		}
		return
	}
	q.seq++
	e = &waitingItem[T]{item: item, due: due, seq: q.seq, st: st}
	q.waiting.push(e)
	q.nwaiting++
	if st != nil {
		st.wait = e
	} else {
		q.waitingAt[item] = e
	}
}

// AddRateLimited queues item after its rate-limit delay: the larger of the
// item's exponential backoff (5 ms x 2^failures, at most 1000 s) and the
// token bucket's wait (MaxOfRateLimiter), or the backoff alone in a queue
// without a bucket.
func (q *workqueue[T]) AddRateLimited(item T, now time.Duration) time.Duration {
	d := q.backoff(item)
	if !q.noBucket {
		d = max(d, q.bucket.reserve(now))
	}
	q.AddAfter(item, d, now)
	return d
}

func (q *workqueue[T]) backoff(item T) time.Duration {
	exp := q.failures[item]
	q.failures[item] = exp + 1
	base := backoffBase
	if q.baseBackoff > 0 {
		base = q.baseBackoff
	}
	b := float64(base) * math.Pow(2, float64(exp))
	if limit := q.backoffLimit(); b > float64(limit) {
		return limit
	}
	return time.Duration(b)
}

// backoffLimit is the largest per-item backoff of the queue.
func (q *workqueue[T]) backoffLimit() time.Duration {
	if q.maxBackoff > 0 {
		return q.maxBackoff
	}
	return backoffMax
}

// Forget clears item's failure count.
func (q *workqueue[T]) Forget(item T) { delete(q.failures, item) }

// NumRequeues returns item's failure count.
func (q *workqueue[T]) NumRequeues(item T) int { return q.failures[item] }

// Promote moves waiting items that are due at now into the queue, in due
// order.
func (q *workqueue[T]) Promote(now time.Duration) {
	if len(q.waiting) > 0 && q.waiting[0].due <= now {
		q.promote(now)
	}
}

func (q *workqueue[T]) promote(now time.Duration) {
	for {
		e := q.waiting.top()
		if e == nil || e.due > now {
			return
		}
		q.waiting.pop()
		e.done = true
		q.nwaiting--
		if st := e.st; st != nil {
			st.wait = nil
			q.mark(e.item, &st.flags, st)
			continue
		}
		delete(q.waitingAt, e.item)
		q.add(e.item)
	}
}

// NextDue returns the due time of the first waiting item.
func (q *workqueue[T]) NextDue() (time.Duration, bool) {
	e := q.waiting.top()
	if e == nil {
		return 0, false
	}
	return e.due, true
}

// Waiting returns the waiting items in due order (a copy, for views).
func (q *workqueue[T]) Waiting() []waitingItem[T] {
	out := make([]waitingItem[T], 0, q.nwaiting)
	for _, w := range q.waiting {
		if w.live() {
			out = append(out, *w.e)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].due != out[j].due {
			return out[i].due < out[j].due
		}
		return out[i].seq < out[j].seq
	})
	return out
}

// NumWaiting returns how many items wait for their due time.
func (q *workqueue[T]) NumWaiting() int { return q.nwaiting }

// Items returns the ready items, front first.
func (q *workqueue[T]) Items() []T { return q.queue[q.head:] }

// reserve takes one token at now and returns how long the caller must wait
// for it.
func (b *tokenBucket) reserve(now time.Duration) time.Duration {
	elapsed := (now - b.last).Seconds()
	if elapsed > 0 {
		b.tokens = math.Min(bucketBurst, b.tokens+elapsed*bucketQPS)
		b.last = now
	}
	b.tokens--
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(-b.tokens / bucketQPS * float64(bucketWindow))
}

// clone copies the queue, mapping each item through m (pointer items must
// be mapped to the clone's pointers).
func (q *workqueue[T]) clone(m func(T) T) *workqueue[T] {
	c := &workqueue[T]{
		name:          q.name,
		queue:         make([]T, q.Len()),
		flagsOf:       q.flagsOf,
		dirtyBit:      q.dirtyBit,
		processingBit: q.processingBit,
		waiting:       make(waitHeap[T], 0, q.nwaiting),
		nwaiting:      q.nwaiting,
		waitingAt:     make(map[T]*waitingItem[T], len(q.waitingAt)),
		failures:      make(map[T]int, len(q.failures)),
		bucket:        q.bucket,
		seq:           q.seq,
		baseBackoff:   q.baseBackoff,
		maxBackoff:    q.maxBackoff,
		noBucket:      q.noBucket,
	}
	for i, it := range q.Items() {
		c.queue[i] = m(it)
	}
	// Items with flags of their own carry them into the clone.
	for it, st := range q.states.m {
		c.states.make(m(it)).flags = st.flags
	}
	for _, w := range q.waiting {
		if !w.live() {
			continue
		}
		e := &waitingItem[T]{item: m(w.e.item), due: w.due, seq: w.seq}
		c.waiting = append(c.waiting, waitEntry[T]{due: e.due, seq: e.seq, e: e})
		if w.e.st != nil {
			e.st = c.states.make(e.item)
			e.st.wait = e
		} else {
			c.waitingAt[e.item] = e
		}
	}
	// Dropping the stale entries leaves the live ones out of heap order.
	for i := len(c.waiting)/2 - 1; i >= 0; i-- {
		c.waiting.down(i)
	}
	for it, n := range q.failures {
		c.failures[m(it)] = n
	}
	if q.flagsOf == nil {
		c.queuedStates = make([]*itemState[T], len(c.queue), cap(c.queue))
		for i, it := range c.queue {
			c.queuedStates[i] = c.states.get(it)
		}
	}
	return c
}

// itemState is what a queue keeps of one item whose flags are not the
// item's own: its dirty and processing bits and its waiting entry, in
// one entry of a map, so that each call on the queue looks the item up
// once instead of once in each of three maps.
type itemState[T comparable] struct {
	flags uint8
	wait  *waitingItem[T]
}

// itemStates maps items to their state while they have one (marked, or
// waiting). A Go map never shrinks: one that held 100,000 items (a
// kubelet's Pods as a large world is deleted) keeps its table, and once
// mostly emptied every lookup of an absent item walks groups of deleted
// slots. So the map is dropped when it empties after having been large,
// and the next item starts a small one. Released states are reused.
type itemStates[T comparable] struct {
	m    map[T]*itemState[T]
	peak int // the largest size since the map was made
	free []*itemState[T]
}

// shrinkAbove is the size past which an emptied map of states is dropped.
const shrinkAbove = 64

// get returns item's state, nil if it has none.
func (s *itemStates[T]) get(item T) *itemState[T] { return s.m[item] }

// make returns item's state, made empty if it had none.
func (s *itemStates[T]) make(item T) *itemState[T] {
	if st := s.m[item]; st != nil {
		return st
	}
	if s.m == nil {
		s.m = map[T]*itemState[T]{}
	}
	var st *itemState[T]
	if n := len(s.free); n > 0 {
		st, s.free = s.free[n-1], s.free[:n-1]
	} else {
		st = &itemState[T]{}
	}
	s.m[item] = st
	s.peak = max(s.peak, len(s.m))
	return st
}

// release forgets item's state st once it is neither marked nor waiting.
func (s *itemStates[T]) release(item T, st *itemState[T]) {
	if st.flags != 0 || st.wait != nil {
		return
	}
	delete(s.m, item)
	if len(s.free) < shrinkAbove {
		s.free = append(s.free, st)
	}
	if len(s.m) == 0 && s.peak > shrinkAbove {
		s.m, s.peak = nil, 0
	}
}

// moveDueTimers hands every key in timers whose time has come at now to q.
// timers holds waits that stand for time passing in the cluster (a
// backoff, a deadline, a TTL, a schedule), which only advance crosses;
// once due, the key is synced like any other.
func moveDueTimers[T comparable](timers, q *workqueue[T], now time.Duration) {
	timers.Promote(now)
	for timers.Len() > 0 {
		k, _ := timers.Get()
		timers.Done(k)
		q.add(k)
	}
}

// WaitingHead returns the first n waiting items in due order, as the
// first n of Waiting, without copying and sorting the rest: a view shows
// a screenful of a heap that holds 100,000 Pods as a large world is
// deleted. It walks the heap from the top, keeping the places next in
// order in a small heap of its own, so it reads about n entries (and the
// stale ones among them) whatever the heap's size.
func (q *workqueue[T]) WaitingHead(n int) []waitingItem[T] {
	if n >= q.nwaiting {
		return q.Waiting()
	}
	out := make([]waitingItem[T], 0, n)
	h := q.waiting
	next := &places[T]{h: h}
	if len(h) > 0 {
		next.at = append(next.at, 0)
	}
	for len(out) < n && next.Len() > 0 {
		p := heap.Pop(next).(int)
		if h[p].live() {
			out = append(out, *h[p].e)
		}
		for _, c := range [2]int{2*p + 1, 2*p + 2} {
			if c < len(h) {
				heap.Push(next, c)
			}
		}
	}
	return out
}

// places is a heap (container/heap) of places in h, ordered as h's
// entries are.
type places[T comparable] struct {
	h  waitHeap[T]
	at []int
}

func (x *places[T]) Len() int           { return len(x.at) }
func (x *places[T]) Less(i, j int) bool { return x.h[x.at[i]].before(x.h[x.at[j]]) }
func (x *places[T]) Swap(i, j int)      { x.at[i], x.at[j] = x.at[j], x.at[i] }
func (x *places[T]) Push(v any)         { x.at = append(x.at, v.(int)) }
func (x *places[T]) Pop() any {
	v := x.at[len(x.at)-1]
	x.at = x.at[:len(x.at)-1]
	return v
}

// shownQueue is a workqueue as a view lists it: its ready items front
// first (unless ready is nil: a timers queue shows only what waits),
// then its waiting items in due order, each made into a QueueItem.
type shownQueue[T comparable] struct {
	q       *workqueue[T]
	ready   func(T) QueueItem
	waiting func(waitingItem[T]) QueueItem
}

// queuePart is one shownQueue of the parts a controller lists for a
// queue (a controller with timers lists its queue, then its timers).
type queuePart interface {
	// count returns how many ready and waiting items the part lists.
	count() (ready, waiting int)
	// head appends the first n items the part lists to out.
	head(out []QueueItem, n int) []QueueItem
}

func (s shownQueue[T]) count() (ready, waiting int) {
	if s.ready != nil {
		ready = s.q.Len()
	}
	return ready, s.q.NumWaiting()
}

func (s shownQueue[T]) head(out []QueueItem, n int) []QueueItem {
	if s.ready != nil {
		items := s.q.Items()
		for _, it := range items[:min(n, len(items))] {
			out = append(out, s.ready(it))
		}
		n -= min(n, len(items))
	}
	if n > 0 {
		for _, w := range s.q.WaitingHead(n) {
			out = append(out, s.waiting(w))
		}
	}
	return out
}

// listHead appends the first n items parts list, in order, to out.
func listHead(out []QueueItem, parts []queuePart, n int) []QueueItem {
	for _, p := range parts {
		before := len(out)
		out = p.head(out, n)
		n -= len(out) - before
		if n <= 0 {
			break
		}
	}
	return out
}
