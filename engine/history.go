package engine

import (
	"fmt"
	"maps"
	"math/bits"
	"slices"
)

// History is a world with a timeline: every action applied through it is
// kept with its record, and the world can be moved to the state after any
// earlier record and forward again. Acting in the past cuts the timeline
// there and starts a new branch.
//
// States are rebuilt by replay: the world is deterministic, so the state
// after action i is the nearest checkpoint at or before i plus the actions
// after it. Checkpoints are clones taken at an interval that grows with
// the world's size, which keeps the cost of taking them small next to the
// steps between them.
//
// What the checkpoints may hold is bounded, since a clone copies every
// object and a long timeline of a large world would otherwise hold more
// than a browser tab can (docs/BENCHMARKS.md, "History"). When the objects the checkpoints copy add up to more than
// checkpointObjects, every other one is dropped, oldest first, the two
// newest and the start excepted, and the interval doubles: the timeline
// keeps checkpoints spread evenly over it, and a jump replays at most
// about its length divided by their number. A long replay also leaves a
// few clones just behind where it stopped (near), so that stepping back
// from there, the way the TUI scrubs a timeline, replays only a few steps
// each time. In a small world a step back also leaves the few states just
// behind its target (behind), which the next steps back take over as they
// are, with neither a clone nor a replay.
type History struct {
	actions []Action
	// records are kept in blocks (see recordBlocks).
	records     recordBlocks
	checkpoints map[int]*World // state after that many actions; 0 is the start
	lastCheck   int
	// spacing is the least interval between checkpoints; it doubles each
	// time they are thinned.
	spacing int
	// near holds clones taken behind the target of the last long replay.
	near map[int]*World
	// behind holds worlds left just behind the target of the last step
	// back in a small world, each owned here until a later Goto takes it
	// over as the live world without cloning it: scrubbing back one step
	// at a time replays from the start once every behindCount+1 steps,
	// not every step.
	behind map[int]*World
	// budget is checkpointObjects (tests make it smaller).
	budget int
	pos    int
	live   *World
	// branchedAt is where the last action in the past cut the timeline,
	// or -1.
	branchedAt int
	// branches counts the cuts.
	branches int
}

const (
	// checkpointObjects bounds the objects all checkpoints copy, together
	// (about 400 bytes of memory each).
	checkpointObjects = 400_000
	// minCheckpoints are kept whatever their size in a world small
	// enough that that many copies fit in the budget; a larger world
	// keeps what the budget holds, and never fewer than leastCheckpoints
	// (the start and the two newest, which thinning keeps).
	minCheckpoints   = 8
	leastCheckpoints = 3
	// nearReplay is the length of replay beyond which clones are left
	// behind its target, at nearGap (a power of two), 2*nearGap, 4*nearGap
	// and 8*nearGap steps before it.
	nearReplay = 256
	nearGap    = 32
	nearCount  = 4
	// largeNearCount is how many a large world leaves (see Goto).
	largeNearCount = 2
	// behindCount is how many worlds a step back leaves behind its
	// target, and behindObjects bounds the objects they copy together:
	// only small worlds, where a clone costs a few steps' replay.
	behindCount   = 4
	behindObjects = 4096
)

// NewHistory starts a timeline at w's current state. The history owns w.
func NewHistory(w *World) *History {
	return &History{checkpoints: map[int]*World{0: w.Clone()}, live: w, branchedAt: -1, budget: checkpointObjects}
}

// NewHistoryFrom starts a timeline at start, which it keeps as its first
// checkpoint without copying it: start must not be changed afterwards,
// only cloned (the TUI keeps the world a file opened on for a reset, and
// a checkpoint is only ever cloned too, so the two are one world instead
// of two copies of a dump's 100,000 objects and their caches). The live
// world is a clone of it.
func NewHistoryFrom(start *World) *History {
	return &History{checkpoints: map[int]*World{0: start}, live: start.Clone(), branchedAt: -1, budget: checkpointObjects}
}

// World returns the world at the current position. Callers must not apply
// actions to it directly.
func (h *History) World() *World { return h.live }

// Len returns the number of records in the timeline.
func (h *History) Len() int { return h.records.n }

// Pos returns how many records are applied at the current position.
func (h *History) Pos() int { return h.pos }

// Record returns record i of the timeline (0 ≤ i < Len; records after
// Pos are kept when the position was moved back), rebuilt from the form
// the history keeps: a copy, whose slices must not be modified.
func (h *History) Record(i int) Record { return h.records.at(i) }

// Changed returns the Changed of record i, without the rest of it.
func (h *History) Changed(i int) []string { return h.records.changed(i) }

// AppendRecords appends records from to to-1 of the timeline to dst.
func (h *History) AppendRecords(dst []Record, from, to int) []Record {
	for i := from; i < to; i++ {
		dst = append(dst, h.records.at(i))
	}
	return dst
}

// Actions returns the actions of the timeline.
func (h *History) Actions() []Action { return h.actions }

// BranchedAt returns the position at which the last branch started, or -1.
func (h *History) BranchedAt() int { return h.branchedAt }

// Branches returns how many times an action in the past cut the
// timeline: while it stays the same, the records of the timeline are
// only ever added to, so what a view found scanning them stays true of
// those it scanned.
func (h *History) Branches() int { return h.branches }

// Do applies a at the current position. If the position is in the past,
// the records after it are dropped first: a new branch starts.
func (h *History) Do(a Action) (Record, error) {
	if h.pos < len(h.actions) {
		h.actions = h.actions[:h.pos]
		h.records.truncate(h.pos)
		for k := range h.checkpoints {
			if k > h.pos {
				delete(h.checkpoints, k)
			}
		}
		for k := range h.near {
			if k > h.pos {
				delete(h.near, k)
			}
		}
		for k := range h.behind {
			if k > h.pos {
				delete(h.behind, k)
			}
		}
		h.lastCheck = 0
		for k := range h.checkpoints {
			h.lastCheck = max(h.lastCheck, k)
		}
		h.branchedAt = h.pos
		h.branches++
	}
	rec, err := h.live.Do(a)
	h.actions = append(h.actions, a)
	h.records.append(rec)
	h.pos++
	if h.pos-h.lastCheck >= h.interval() {
		h.checkpoints[h.pos] = h.live.Clone()
		h.lastCheck = h.pos
		h.thin()
	}
	return rec, err
}

// interval is the number of actions between checkpoints: at least 64, and
// more for large worlds, where a clone costs more; never less than spacing.
func (h *History) interval() int { return max(h.baseInterval(), h.spacing) }

// baseInterval is the interval before any thinning.
func (h *History) baseInterval() int { return min(max(64, h.live.store.Len()/16), 4096) }

// thin drops every other checkpoint, oldest first, keeping the start and
// the two newest, while their objects add up to more than the budget.
func (h *History) thin() {
	keep := minCheckpoints
	if h.large() {
		keep = max(h.budget/h.live.store.Len(), leastCheckpoints)
	}
	for len(h.checkpoints) > keep {
		objects := 0
		for _, w := range h.checkpoints {
			objects += w.store.Len()
		}
		if objects <= h.budget {
			return
		}
		keys := slices.Sorted(maps.Keys(h.checkpoints))
		for i := 1; i < len(keys)-2; i += 2 {
			delete(h.checkpoints, keys[i])
		}
		h.spacing = 2 * max(h.spacing, h.interval())
	}
}

// large reports whether the world is too large for minCheckpoints copies
// of it in the budget.
func (h *History) large() bool {
	n := h.live.store.Len()
	return n > 0 && h.budget/n < minCheckpoints
}

// Goto moves to the state after the first pos records.
func (h *History) Goto(pos int) error {
	if pos < 0 || pos > len(h.actions) {
		return fmt.Errorf("position %d is outside the timeline (0 to %d)", pos, len(h.actions))
	}
	if pos == h.pos {
		return nil
	}
	base, from := 0, h.checkpoints[0]
	for _, cps := range []map[int]*World{h.checkpoints, h.near, h.behind} {
		for k, w := range cps {
			if k <= pos && k > base {
				base, from = k, w
			}
		}
	}
	stepBack := pos < h.pos
	switch {
	case pos > h.pos && h.pos >= base:
		base = h.pos // replaying forward from here is cheapest
	case h.behind[base] == from:
		h.live = from // owned by no one else: no clone needed
		delete(h.behind, base)
	default:
		h.live = from.Clone()
	}
	// A long replay leaves clones just behind its target. In a large
	// world a clone costs as much as thousands of steps
	// (docs/BENCHMARKS.md, "History"), so it leaves fewer, as far apart
	// as checkpoints are taken (the power of two at or below the
	// interval): a step back then replays up to that many steps rather
	// than taking clones that save less than they cost.
	var near map[int]*World
	gap, count := nearGap, nearCount
	if h.large() {
		gap, count = 1<<(bits.Len(uint(h.baseInterval()))-1), largeNearCount
	}
	if pos-base > max(nearReplay, gap) {
		near = map[int]*World{}
	}
	// A step back in a small world leaves the states just behind its
	// target, for the next steps back.
	var behind map[int]*World
	if stepBack && pos-base > 1 && behindCount*h.live.store.Len() <= behindObjects {
		behind = map[int]*World{}
	}
	for i := base; i < pos; i++ {
		h.live.Do(h.actions[i]) //nolint:errcheck // the record is already kept
		if near != nil {
			if back := pos - (i + 1); back >= gap && back <= gap<<(count-1) && back&(back-1) == 0 { // a power of two
				near[i+1] = h.live.Clone()
			}
		}
		if behind != nil && i+1 < pos && i+1 >= pos-behindCount {
			behind[i+1] = h.live.Clone()
		}
	}
	if near != nil {
		h.near = near
	}
	if behind != nil {
		h.behind = behind
	}
	h.pos = pos
	return nil
}

// Back moves one record back; Forward one record forward.
func (h *History) Back() error { return h.Goto(h.pos - 1) }

// Forward re-applies the next record of the timeline.
func (h *History) Forward() error { return h.Goto(h.pos + 1) }

// Undo moves back to before the last record that changed something,
// skipping steps that changed nothing (no API write, no graph change).
func (h *History) Undo() error {
	p := h.pos
	for p > 0 && len(h.records.changed(p-1)) == 0 && h.records.at(p-1).Actor != "user" {
		p--
	}
	if p == 0 {
		return fmt.Errorf("nothing to undo")
	}
	return h.Goto(p - 1)
}
