package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/scenario"
)

// session is the playground's world and its timeline: the scenario it
// started from, the world that scenario left, and a History of everything
// done since. Every change to the world goes through a session method, which
// bumps version so the views know to recompute what they cache.
type session struct {
	origin *scenario.Scenario
	start  *engine.World // as the origin left it; only ever cloned
	h      *engine.History

	// version counts changes to the world at the current position.
	version int

	// Breakpoints: stop autoplay and run when attemptToOrphan gets an item,
	// and when a watched object (by UID) changes.
	breakOrphan bool
	watch       map[string]string // UID -> the object as the user named it

	// runCap is the most steps one run takes before it pauses
	// (scenario.DefaultMaxSteps; tests make it smaller).
	runCap int
}

// result is what one operation did, for the message line.
type result struct {
	recs []engine.Record
	// branchedFrom is set (≥0) when the operation cut the timeline: it
	// acted in the past, and the records after that point were dropped.
	branchedFrom int
	dropped      int
	// hit is the breakpoint that stopped the operation.
	hit string
	// backoff is true when a settle stopped at max-backoff retries.
	backoff bool
	// unsettled is the next work when a run paused at its step cap
	// without settling (a large world takes more than one run).
	unsettled string
	// replayed is true when the operation moved forward along the
	// recorded timeline instead of acting.
	replayed bool
}

func newSession(origin *scenario.Scenario, start *engine.World) *session {
	return &session{origin: origin, start: start, h: engine.NewHistoryFrom(start), watch: map[string]string{},
		runCap: scenario.DefaultMaxSteps}
}

// world returns the world at the current position of the timeline.
func (s *session) world() *engine.World { return s.h.World() }

// begin notes whether the next action cuts the timeline (acting after a
// rewind starts a new branch).
func (s *session) begin() result {
	r := result{branchedFrom: -1}
	if s.h.Pos() < s.h.Len() {
		r.branchedFrom = s.h.Pos()
		r.dropped = s.h.Len() - s.h.Pos()
	}
	return r
}

// do applies one action to the timeline.
func (s *session) do(a engine.Action) (engine.Record, error) {
	rec, err := s.h.Do(a)
	s.version++
	return rec, err
}

// act applies a user request (create, delete, patch, restart, inject). It
// is tried first on a copy of the world: a request the apiserver refuses
// changes nothing, not even the timeline.
func (s *session) act(a engine.Action) (result, error) {
	if _, err := s.world().Clone().Do(a); err != nil {
		return result{branchedFrom: -1}, err
	}
	r := s.begin()
	rec, err := s.do(a)
	r.recs = append(r.recs, rec)
	r.hit = s.breakpoint(rec)
	return r, err
}

// ready reports whether queue (or, when "", any queue) has work ready now.
func (s *session) ready(queue string) bool {
	w := s.world()
	if queue == "" {
		return !w.Idle()
	}
	w.Idle() // promote what is due
	for _, it := range w.Queue(queue) {
		if !it.Waiting {
			return true
		}
	}
	return false
}

// step processes one work item, from queue or in the default order. In
// the past, when the timeline's next action is that very step, it is
// replayed (moving forward) rather than starting a branch: the world is
// deterministic, so the same step would do the same thing.
func (s *session) step(queue string) (result, error) {
	if st, ok := s.next().(engine.Step); ok && st.Queue == queue {
		return s.replay()
	}
	if !s.ready(queue) {
		return result{branchedFrom: -1}, s.nothingReady(queue)
	}
	r := s.begin()
	rec, err := s.do(engine.Step{Queue: queue})
	r.recs = append(r.recs, rec)
	r.hit = s.breakpoint(rec)
	return r, err
}

// next returns the timeline's next action after the current position, or
// nil at the end.
func (s *session) next() engine.Action {
	if p := s.h.Pos(); p < s.h.Len() {
		return s.h.Actions()[p]
	}
	return nil
}

// nextIsController reports whether the timeline goes on, from here, with
// a controller step or a clock advance (not a user request).
func (s *session) nextIsController() bool {
	switch s.next().(type) {
	case engine.Step, engine.Advance:
		return true
	}
	return false
}

// replay moves one action forward along the timeline.
func (s *session) replay() (result, error) {
	p := s.h.Pos()
	if err := s.gotoPos(p + 1); err != nil {
		return result{branchedFrom: -1}, err
	}
	rec := s.h.Record(p)
	return result{branchedFrom: -1, recs: []engine.Record{rec}, hit: s.breakpoint(rec), replayed: true}, nil
}

// nothingReady explains why a step cannot run, and what would help.
func (s *session) nothingReady(queue string) error {
	w := s.world()
	if queue != "" && !slices.Contains(w.QueueNames(), queue) {
		return errorf("there is no queue %q (there are %s)", queue, strings.Join(w.QueueNames(), ", "))
	}
	e := &notReady{queue: queue, now: w.Elapsed(), due: -1}
	if due, ok := w.NextWake(); ok {
		e.due = due
	}
	w.Idle() // promote what is due
	for i, name := range w.QueueNames() {
		ready, waiting := 0, 0
		for _, it := range w.Queue(name) {
			if it.Waiting {
				waiting++
			} else {
				ready++
			}
		}
		if name == queue {
			e.waiting = waiting
		}
		if ready > 0 {
			e.ready = append(e.ready, queueCount{n: i + 1, name: name, items: ready})
		}
	}
	return e
}

// notReady is why a step cannot run: the queue asked for (or every queue)
// has nothing ready; it says which queues have work, and when delayed work
// is due. The playground adds the keys that would help.
type notReady struct {
	queue    string
	waiting  int
	ready    []queueCount
	due, now time.Duration
}

type queueCount struct {
	n     int
	name  string
	items int
}

func (e *notReady) Error() string { return e.text("", "", "") }

// text words the error; the keys (step, step from queue N, advance) are
// named when given.
func (e *notReady) text(stepKey, stepQueueKey, advanceKey string) string {
	var b strings.Builder
	b.WriteString("nothing to step: ")
	switch {
	case e.queue == "":
		b.WriteString("every queue is empty")
	case e.waiting > 0:
		fmt.Fprintf(&b, "%s has %d %s waiting for its retry delay, none ready", e.queue, e.waiting, plural(e.waiting, "item", "items"))
	default:
		b.WriteString(e.queue + " is empty")
	}
	if len(e.ready) > 0 {
		parts := make([]string, len(e.ready))
		for i, q := range e.ready {
			parts[i] = q.name
			if k := queueKey(q.n - 1); k != "" && stepQueueKey != "" {
				parts[i] = k + " " + q.name
			}
		}
		b.WriteString("; work is ready in " + strings.Join(parts, ", "))
		if stepQueueKey != "" {
			fmt.Fprintf(&b, " (%s: a queue by its number; %s: the next in order)", stepQueueKey, stepKey)
		}
		return b.String()
	}
	if e.due >= 0 {
		fmt.Fprintf(&b, "; the next work is due at %s (now %s)", engine.FormatElapsed(e.due), engine.FormatElapsed(e.now))
		if advanceKey != "" {
			fmt.Fprintf(&b, ": %s advances the clock to it", advanceKey)
		}
		return b.String()
	}
	b.WriteString("; the world is settled")
	return b.String()
}

// advance moves the clock forward by d, running what becomes due on the
// way, as a scenario's advance step does. With d < 0 it advances to the
// next time delayed work is due.
func (s *session) advance(d time.Duration) (result, error) {
	w := s.world()
	if d < 0 {
		due, ok := w.NextWake()
		if !ok {
			return result{branchedFrom: -1}, errorf("nothing is waiting on the clock: no delayed work, no grace period pending")
		}
		d = due - w.Elapsed()
	}
	r := s.begin()
	res, err := engine.AdvanceBy(&stopDoer{s: s}, d, scenario.DefaultMaxSteps)
	r.recs = res.Records
	for _, rec := range r.recs {
		if r.hit == "" {
			r.hit = s.breakpoint(rec)
		}
	}
	return r, err
}

// stopDoer applies actions through the session, so engine helpers
// (Settle, AdvanceBy) record into the timeline. With a stop function it
// ends a run early: when stop returns a reason after an action, Do
// returns errStopped.
type stopDoer struct {
	s    *session
	stop func(engine.Record) string
	why  string
}

var errStopped = errors.New("stopped")

func (d *stopDoer) Do(a engine.Action) (engine.Record, error) {
	rec, err := d.s.do(a)
	if err != nil {
		return rec, err
	}
	if d.stop != nil {
		if why := d.stop(rec); why != "" {
			d.why = why
			return rec, errStopped
		}
	}
	return rec, nil
}

func (d *stopDoer) World() *engine.World { return d.s.world() }

// settleRun is a settle in progress: it runs in chunks so the screen can
// show progress and a key can stop it.
type settleRun struct {
	r     result
	steps int
}

// startSettle begins a settle operation.
func (s *session) startSettle() *settleRun { return &settleRun{r: s.begin()} }

// settleChunk runs up to limit more steps of a settle. It reports whether
// the run is over (settled, stopped by a breakpoint, or failed).
func (s *session) settleChunk(run *settleRun, limit int) (over bool, err error) {
	if run.steps >= s.runCap {
		run.r.unsettled = s.world().Describe()
		return true, nil
	}
	d := &stopDoer{s: s}
	n := 0
	d.stop = func(rec engine.Record) string {
		run.r.recs = append(run.r.recs[:0], rec) // only the last one is shown
		if why := s.breakpoint(rec); why != "" {
			return why
		}
		if rec.Actor != "clock" {
			n++
		}
		if n >= limit {
			return "chunk"
		}
		return ""
	}
	res, err := engine.Settle(d, min(limit+1, s.runCap-run.steps))
	run.steps += res.Steps
	var notSettled *engine.NotSettledError
	switch {
	case errors.As(err, &notSettled) && run.steps >= s.runCap:
		run.r.unsettled = notSettled.Next
		return true, nil
	case errors.Is(err, errStopped) && d.why == "chunk":
		return false, nil
	case errors.Is(err, errStopped):
		run.r.hit = d.why
		return true, nil
	case err != nil:
		return true, err
	}
	run.r.backoff = res.Backoff
	return true, nil
}

// breakpoint returns why rec should stop autoplay or a run, or "".
func (s *session) breakpoint(rec engine.Record) string {
	if s.breakOrphan {
		for _, e := range rec.Enqueued() {
			if e.Queue == engine.QueueAttemptToOrphan {
				return fmt.Sprintf("breakpoint: attemptToOrphan got %s at step %d", e.Item, s.h.Pos())
			}
		}
	}
	for _, uid := range rec.Changed {
		if name, ok := s.watch[uid]; ok {
			return fmt.Sprintf("breakpoint: %s changed at step %d", name, s.h.Pos())
		}
	}
	return ""
}

// Moving along the timeline.

func (s *session) gotoPos(p int) error {
	if err := s.h.Goto(p); err != nil {
		return err
	}
	s.version++
	return nil
}

func (s *session) undo() error {
	if err := s.h.Undo(); err != nil {
		return err
	}
	s.version++
	return nil
}

// reset starts over from the origin's world with an empty timeline.
func (s *session) reset() {
	s.h = engine.NewHistoryFrom(s.start)
	s.version++
}

// replace swaps in another origin and its world, with an empty timeline.
func (s *session) replace(origin *scenario.Scenario, start *engine.World) {
	s.origin, s.start = origin, start
	s.watch = map[string]string{}
	s.reset()
}
