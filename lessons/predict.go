package lessons

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
)

// Outcome is what happens to an object in a prediction.
type Outcome string

// The outcomes a learner can predict.
const (
	// Survives: still in storage and not terminating, with an owner
	// left (or with none to begin with).
	Survives Outcome = "survives"
	// Orphaned: still in storage and not terminating, but every
	// ownerReference it had is gone.
	Orphaned Outcome = "orphaned"
	// Deleted: gone from storage.
	Deleted Outcome = "deleted"
	// Terminating: still in storage, terminating: something holds it.
	Terminating Outcome = "terminating"
)

// Outcomes lists the outcomes in the order a learner cycles through them.
var Outcomes = []Outcome{Survives, Orphaned, Deleted, Terminating}

// Prediction is a learner's prediction for a lesson's experiment.
type Prediction struct {
	// Outcomes maps each predicted object (as Kind/name or
	// Kind/namespace/name) to its predicted outcome.
	Outcomes map[string]Outcome
	// Order lists the objects predicted deleted, in the order predicted
	// (lessons whose prediction asks for it).
	Order []string
}

// PredictResult compares a prediction with what happened.
type PredictResult struct {
	Objects []PredictedObject
	// Right counts the objects whose outcome was predicted right; Total
	// counts them all, plus one for the order when it was asked for.
	Right, Total int
	// Order is set for lessons that ask for the order of deletion.
	Order *OrderResult
}

// PredictedObject is one object of a prediction.
type PredictedObject struct {
	Ref       string
	Predicted Outcome
	Actual    Outcome
	Right     bool
	// Why says what happened to it, from the engine's records.
	Why string
}

// OrderResult compares the predicted order of deletion with the actual.
type OrderResult struct {
	Predicted, Actual []string
	Right             bool
}

// Score returns the words for a prediction result: "3 of 4 right".
func (r *PredictResult) Score() string { return fmt.Sprintf("%d of %d right", r.Right, r.Total) }

// Ref names the prediction's objects in the form Prediction uses.
func (p *Predict) Refs() []string {
	var out []string
	for _, r := range p.Objects {
		out = append(out, r.String())
	}
	return out
}

// RunPrediction runs the lesson's experiment from the starting world: the
// predict steps, then a settle, as a learner stepping to the end would.
func (l *Lesson) RunPrediction() (*Run, error) {
	if l.Predict == nil {
		return nil, fmt.Errorf("lesson %s has no prediction", l.ID)
	}
	steps := slices.Clone(l.Predict.Steps)
	steps = append(steps, settleStep())
	return l.Try(steps)
}

// ActualOutcome says what happened to an object between the start of an
// experiment (start) and now (nil when gone from storage).
func ActualOutcome(start, now *fakeapi.Object) Outcome {
	switch {
	case now == nil, start != nil && now.Metadata.UID != start.Metadata.UID:
		return Deleted
	case now.Metadata.DeletionTimestamp != nil:
		return Terminating
	case start != nil && len(start.Metadata.OwnerReferences) > 0 && len(now.Metadata.OwnerReferences) == 0:
		return Orphaned
	}
	return Survives
}

// Score compares prediction p with the world w the experiment left (recs
// are its records), object by object, saying for each what happened and
// why.
func (g *Grader) Score(l *Lesson, p Prediction, w *engine.World, recs []engine.Record) *PredictResult {
	st := newStory(g, l, w, recs)
	res := &PredictResult{}
	if l.Predict == nil {
		return res
	}
	var deleted []string
	for _, r := range l.Predict.Objects {
		ref := r.String()
		now := st.lookup(r)
		o := PredictedObject{Ref: ref, Predicted: p.Outcomes[ref], Actual: ActualOutcome(st.startObject(ref), now)}
		o.Right = o.Predicted == o.Actual
		o.Why = g.tidy(st.outcomeWhy(ref, now, o.Actual))
		if o.Right {
			res.Right++
		}
		res.Total++
		if o.Actual == Deleted {
			deleted = append(deleted, ref)
		}
		res.Objects = append(res.Objects, o)
	}
	if l.Predict.Order {
		// The actual order: removals from storage, in sequence.
		seq := map[string]int{}
		for _, rm := range w.Store().Removals() {
			seq[rm.Ref.String()] = rm.Seq
		}
		slices.SortStableFunc(deleted, func(a, b string) int { return seq[a] - seq[b] })
		or := &OrderResult{Predicted: slices.Clone(p.Order), Actual: deleted}
		or.Right = slices.Equal(or.Predicted, or.Actual)
		res.Order = or
		res.Total++
		if or.Right {
			res.Right++
		}
	}
	return res
}

// outcomeWhy says why an object ended as it did.
func (st *story) outcomeWhy(ref string, now *fakeapi.Object, actual Outcome) string {
	switch actual {
	case Deleted:
		if now != nil {
			return st.replacedWhy(ref)
		}
		if c := st.goneCause(ref); c != "" {
			return c
		}
		return st.p.say("outcome-gone", "object", ref)
	case Terminating:
		return strings.TrimSpace(st.whyStays(now))
	}
	if start := st.startObject(ref); len(now.Metadata.OwnerReferences) == 0 && (start == nil || len(start.Metadata.OwnerReferences) == 0) {
		return st.p.say("outcome-never-owned", "object", ref)
	}
	s := strings.TrimSpace(st.staysCause(now))
	// A dependent kept by a solid owner had its other references patched
	// away: say so.
	for i := range st.recs {
		rec := &st.recs[i]
		if rec.Actor == engine.QueueAttemptToDelete && st.patchedOwners(rec, ref) {
			s = strings.TrimSpace(st.p.say("changed-by", "who", st.who(rec), "at", st.at(rec.Seq), "what", st.reasonText(rec)) + " " + s)
		}
	}
	if s == "" {
		return st.p.say("outcome-untouched", "object", ref)
	}
	return s
}

// replacedWhy says why ref counts as deleted although an object of that
// name is in storage: the one the learner knew was deleted, and something
// (its controller, usually) made another, with another uid.
func (st *story) replacedWhy(ref string) string {
	made := -1
	for i := range st.recs {
		for _, c := range st.recs[i].Calls() {
			if c.Verb == "create" && c.Ref.String() == ref && c.Code < 300 {
				made = i
			}
		}
	}
	if made < 0 {
		return st.p.say("outcome-gone", "object", ref)
	}
	cause := st.goneCauseBefore(ref, made)
	if cause == "" {
		cause = st.p.say("outcome-gone", "object", ref)
	}
	rec := &st.recs[made]
	return cause + " " + st.p.say("outcome-replaced", "object", ref, "who", st.who(rec), "at", st.at(rec.Seq))
}
