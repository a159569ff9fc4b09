package engine

import "fmt"

// History is a world with a timeline: every action applied through it is
// kept with its record, and the world can be moved to the state after any
// earlier record and forward again. Acting in the past cuts the timeline
// there and starts a new branch.
//
// States are rebuilt by replay: the world is deterministic, so the state
// after action i is the nearest checkpoint at or before i plus the actions
// after it. Checkpoints are clones taken at an interval that grows with
// the world's size, which keeps both memory and the cost of a jump small.
type History struct {
	actions     []Action
	records     []Record
	checkpoints map[int]*World // state after that many actions; 0 is the start
	lastCheck   int
	pos         int
	live        *World
	// Branched is set when an action cut the timeline.
	branchedAt int
}

// NewHistory starts a timeline at w's current state. The history owns w.
func NewHistory(w *World) *History {
	return &History{checkpoints: map[int]*World{0: w.Clone()}, live: w, branchedAt: -1}
}

// World returns the world at the current position. Callers must not apply
// actions to it directly.
func (h *History) World() *World { return h.live }

// Len returns the number of records in the timeline.
func (h *History) Len() int { return len(h.records) }

// Pos returns how many records are applied at the current position.
func (h *History) Pos() int { return h.pos }

// Records returns the whole timeline (including records after Pos, when
// the position was moved back).
func (h *History) Records() []Record { return h.records }

// Actions returns the actions of the timeline.
func (h *History) Actions() []Action { return h.actions }

// BranchedAt returns the position at which the last branch started, or -1.
func (h *History) BranchedAt() int { return h.branchedAt }

// Do applies a at the current position. If the position is in the past,
// the records after it are dropped first: a new branch starts.
func (h *History) Do(a Action) (Record, error) {
	if h.pos < len(h.actions) {
		h.actions = h.actions[:h.pos]
		h.records = h.records[:h.pos]
		for k := range h.checkpoints {
			if k > h.pos {
				delete(h.checkpoints, k)
			}
		}
		h.lastCheck = 0
		for k := range h.checkpoints {
			h.lastCheck = max(h.lastCheck, k)
		}
		h.branchedAt = h.pos
	}
	rec, err := h.live.Do(a)
	h.actions = append(h.actions, a)
	h.records = append(h.records, rec)
	h.pos++
	if h.pos-h.lastCheck >= h.interval() {
		h.checkpoints[h.pos] = h.live.Clone()
		h.lastCheck = h.pos
	}
	return rec, err
}

// interval is the number of actions between checkpoints: at least 64, and
// more for large worlds, where a clone costs more.
func (h *History) interval() int {
	return min(max(64, h.live.store.Len()/16), 4096)
}

// Goto moves to the state after the first pos records.
func (h *History) Goto(pos int) error {
	if pos < 0 || pos > len(h.actions) {
		return fmt.Errorf("position %d is outside the timeline (0 to %d)", pos, len(h.actions))
	}
	if pos == h.pos {
		return nil
	}
	base := 0
	for k := range h.checkpoints {
		if k <= pos && k > base {
			base = k
		}
	}
	if pos > h.pos && h.pos >= base {
		base = h.pos // replaying forward from here is cheapest
	} else {
		h.live = h.checkpoints[base].Clone()
	}
	for i := base; i < pos; i++ {
		h.live.Do(h.actions[i]) //nolint:errcheck // the record is already kept
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
	for p > 0 && len(h.records[p-1].Changed) == 0 && h.records[p-1].Actor != "user" {
		p--
	}
	if p == 0 {
		return fmt.Errorf("nothing to undo")
	}
	return h.Goto(p - 1)
}
