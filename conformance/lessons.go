package main

import (
	"context"
	"fmt"
	"path"
	"slices"
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gcplay/gcplay/lessons"
	"github.com/gcplay/gcplay/scenario"
)

// A lesson is checked against real Kubernetes in three runs, each on a
// fresh cluster, each built from the lesson's scenario parts exactly as
// gcplay's own tests run them:
//
//   - solution: the starting world, the solution's steps, a settle when
//     the goal needs a settled world, then the goal as an expect. Every
//     goal check must hold on the real cluster too.
//   - wrong answer: the same with the wrong answer's steps. gcplay misses
//     the goal; the real cluster must miss the same goal checks (and meet
//     the others).
//   - prediction: the starting world, the experiment's steps, a settle;
//     the outcome of every object the learner predicts (survives,
//     orphaned, deleted, terminating) and, where the lesson asks for it,
//     the order of the deletions, must be what gcplay says.

// predictJob is a lesson's predict-then-run experiment.
type predictJob struct {
	// After is the index in the scenario's steps where the experiment
	// starts: the world just before it is the start world.
	After   int
	Objects []scenario.Ref
	Order   bool
	// Sim is gcplay's outcome for each object (by Ref.String()), SimOrder
	// the order of gcplay's deletions.
	Sim      map[string]string
	SimOrder []string
}

func lessonJobs() (jobs []job, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the built-in course does not load: %v", p)
		}
	}()
	c := lessons.Builtin()
	g := c.Grader(lessons.DefaultLocale)
	for _, l := range c.Lessons {
		name := func(what string) string {
			return fmt.Sprintf("lessons/content/%s (lesson %d, %s)", l.File, l.Number, what)
		}
		known := func(what string) string { return path.Base(l.File) + "#" + what }
		jobs = append(jobs, job{Name: name("solution"), Known: known("solution"), S: lessonScenario(l, l.Solution, true)})
		for _, w := range l.Wrong {
			jobs = append(jobs, job{Name: name("wrong answer " + w.ID), Known: known("wrong-" + w.ID), S: lessonScenario(l, w.Steps, true)})
		}
		if l.Predict == nil {
			continue
		}
		r, err := l.RunPrediction()
		if err != nil {
			return nil, fmt.Errorf("lesson %s: the prediction does not run in gcplay: %v", l.ID, err)
		}
		score := g.Score(l, lessons.Prediction{}, r.World, r.Records)
		pj := &predictJob{After: len(l.World.Steps), Objects: l.Predict.Objects, Order: l.Predict.Order, Sim: map[string]string{}}
		for _, o := range score.Objects {
			pj.Sim[o.Ref] = string(o.Actual)
		}
		if score.Order != nil {
			pj.SimOrder = score.Order.Actual
		}
		steps := append(slices.Clone(l.Predict.Steps), scenario.Step{Action: scenario.ActionSettle, MaxSteps: scenario.DefaultMaxSteps})
		jobs = append(jobs, job{Name: name("prediction"), Known: known("prediction"), S: lessonScenario(l, steps, false), Predict: pj})
	}
	return jobs, nil
}

// lessonScenario is the lesson's world followed by steps, then, with
// goal, a settle (when the goal needs a settled world) and the goal as an
// expect. Steps are renumbered in order, so that labels are unique.
func lessonScenario(l *lessons.Lesson, steps []scenario.Step, goal bool) *scenario.Scenario {
	sc := *l.World
	all := append(slices.Clone(l.World.Steps), steps...)
	if goal {
		if l.Settled && (len(all) == 0 || all[len(all)-1].Action != scenario.ActionSettle) {
			all = append(all, scenario.Step{Action: scenario.ActionSettle, MaxSteps: scenario.DefaultMaxSteps})
		}
		all = append(all, scenario.Step{Action: scenario.ActionExpect, Expect: l.Goal, Line: goalLine(l.Goal)})
	}
	for i := range all {
		all[i].Index = i
	}
	sc.Steps = all
	return &sc
}

// goalLine is the first line of the goal's checks.
func goalLine(x *scenario.Expect) int {
	line := 0
	consider := func(l int) {
		if l > 0 && (line == 0 || l < line) {
			line = l
		}
	}
	for _, l := range [][]scenario.RefCheck{x.Exists, x.Absent, x.Terminating, x.NotTerminating, x.NoEvents} {
		for _, c := range l {
			consider(c.Line)
		}
	}
	for _, c := range x.Finalizers {
		consider(c.Line)
	}
	for _, c := range x.OwnerReferences {
		consider(c.Line)
	}
	if x.DeletionOrder != nil {
		consider(x.DeletionOrder.Line)
	}
	for _, c := range x.Count {
		consider(c.Line)
	}
	return line
}

// predictSnapshot is the start world of an experiment: each predicted
// object as it was (nil when absent).
type predictSnapshot struct {
	start map[string]*metav1.PartialObjectMetadata
}

func (x *executor) snapshot(ctx context.Context, pj *predictJob) *predictSnapshot {
	x.refreshNames()
	s := &predictSnapshot{start: map[string]*metav1.PartialObjectMetadata{}}
	for _, r := range pj.Objects {
		o, _ := x.lookup(ctx, r)
		s.start[r.String()] = o
	}
	return s
}

// realOutcome is lessons.ActualOutcome over the real objects.
func realOutcome(start, now *metav1.PartialObjectMetadata) string {
	switch {
	case now == nil, start != nil && now.UID != start.UID:
		return string(lessons.Deleted)
	case now.DeletionTimestamp != nil:
		return string(lessons.Terminating)
	case start != nil && len(start.OwnerReferences) > 0 && len(now.OwnerReferences) == 0:
		return string(lessons.Orphaned)
	}
	return string(lessons.Survives)
}

func (x *executor) comparePrediction(ctx context.Context, pj *predictJob, snap *predictSnapshot) StepReport {
	x.refreshNames()
	sr := StepReport{Label: "prediction", Summary: "the outcomes the learner predicts"}
	var deleted []string
	for _, r := range pj.Objects {
		ref := r.String()
		now, err := x.lookup(ctx, r)
		c := CheckResult{Step: sr.Label, Key: "predict", Subject: ref, Expected: pj.Sim[ref] + " (gcplay)"}
		if err != nil {
			c.Real, c.Status = "error: "+err.Error(), Disagree
		} else {
			got := realOutcome(snap.start[ref], now)
			c.Real, c.Status = got, status(got == pj.Sim[ref])
			if got == string(lessons.Deleted) {
				deleted = append(deleted, ref)
			}
		}
		x.classify(&c)
		sr.Checks = append(sr.Checks, c)
	}
	if pj.Order {
		// The order of the removals of the objects deleted, by the
		// revisions of their DELETED events.
		removals := x.rec.Removals()
		rv := map[string]int64{}
		for _, ref := range deleted {
			for _, r := range pj.Objects {
				if r.String() != ref {
					continue
				}
				start := snap.start[ref]
				for _, rm := range removals {
					if x.refMatches(r, rm.kind, rm.namespace, rm.name, rm.uid) && (start == nil || rm.uid == string(start.UID)) {
						rv[ref] = rm.rv
					}
				}
			}
		}
		sort.SliceStable(deleted, func(i, j int) bool { return rv[deleted[i]] < rv[deleted[j]] })
		c := CheckResult{Step: sr.Label, Key: "predict.order", Expected: list(pj.SimOrder) + " (gcplay)", Real: list(deleted),
			Status: status(slices.Equal(deleted, pj.SimOrder))}
		x.classify(&c)
		sr.Checks = append(sr.Checks, c)
	}
	agree := 0
	for _, c := range sr.Checks {
		if c.Status == Agree {
			agree++
		}
	}
	sr.Outcome = fmt.Sprintf("%d of %d outcomes as in gcplay", agree, len(sr.Checks))
	return sr
}
