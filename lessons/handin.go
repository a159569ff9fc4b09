package lessons

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// A hand-in is a scenario file: the lesson's starting world (its objects
// and set-up steps, as the course file has them), then the learner's own
// steps. `gcplay run` runs it; `gcplay lessons check` grades it. The
// playground writes one from its timeline; a learner may also write one
// by hand, starting from `gcplay lessons world NAME`.

// World returns the lesson's starting world as a scenario file, ready for
// the learner's steps.
func (l *Lesson) WorldFile() []byte {
	b, _ := l.HandIn(nil)
	return b
}

// HandIn returns a scenario file with the lesson's starting world followed
// by actions, the learner's actions as the playground's timeline holds
// them (user requests, collector steps, clock moves). Steps taken in a row
// become one `step: N`; a clock move and the steps it made due become one
// `advance` where the scenario interpreter does the same.
func (l *Lesson) HandIn(actions []engine.Action) ([]byte, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# gcplay lesson %d (%s): a hand-in.\n", l.Number, l.ID)
	fmt.Fprintf(&b, "# Grade it with: gcplay lessons check %s FILE\n", l.ID)
	for _, line := range l.worldText {
		b.WriteString(line + "\n")
	}
	b.WriteString("steps:\n")
	if len(l.World.Steps) > 0 {
		b.WriteString("  # the lesson's set-up (keep it: the hand-in must start from the lesson's world)\n")
		for i := range l.World.Steps {
			for _, line := range stepYAML(&l.World.Steps[i]) {
				b.WriteString(line + "\n")
			}
		}
	}
	b.WriteString("  # your steps\n")
	lines, err := l.actionsYAML(actions)
	if err != nil {
		return nil, err
	}
	for _, line := range lines {
		b.WriteString(line + "\n")
	}
	return []byte(b.String()), nil
}

// actionsYAML turns a timeline's actions into scenario steps. It replays
// them on a copy of the starting world to know how many steps each clock
// move stands for.
func (l *Lesson) actionsYAML(actions []engine.Action) ([]string, error) {
	start, err := l.Start()
	if err != nil {
		return nil, err
	}
	shadow := start.World
	var out []string
	for i := 0; i < len(actions); i++ {
		switch a := actions[i].(type) {
		case engine.Step:
			n := 1
			for i+n < len(actions) && actions[i+n] == engine.Action(a) {
				n++
			}
			line := "  - step: " + strconv.Itoa(n)
			if a.Queue != "" {
				line = "  - {step: " + strconv.Itoa(n) + ", queue: " + a.Queue + "}"
			}
			out = append(out, line)
			for j := 0; j < n; j++ {
				shadow.Do(a) //nolint:errcheck // replaying what happened
			}
			i += n - 1
			continue
		case engine.Advance:
			// A scenario's advance runs what becomes due on the way; the
			// timeline holds the clock move and those steps one by one.
			c := shadow.Clone()
			res, _ := engine.AdvanceBy(c, a.D, scenario.DefaultMaxSteps)
			k := res.Steps
			match := i+k < len(actions)
			for j := 1; match && j <= k; j++ {
				match = actions[i+j] == engine.Action(engine.Step{})
			}
			if !match {
				return nil, fmt.Errorf("the timeline moves the clock by %s without running what became due; a scenario cannot say that (step %d)", a.D, i+1)
			}
			out = append(out, "  - advance: "+a.D.String())
			for j := 0; j <= k; j++ {
				shadow.Do(actions[i+j]) //nolint:errcheck // replaying what happened
			}
			i += k
			continue
		}
		lines, err := actionYAML(actions[i])
		if err != nil {
			return nil, err
		}
		out = append(out, lines...)
		shadow.Do(actions[i]) //nolint:errcheck // replaying what happened
	}
	return out, nil
}

// actionYAML writes one user request as a scenario step.
func actionYAML(a engine.Action) ([]string, error) {
	switch a := a.(type) {
	case engine.Create:
		b, err := json.Marshal(a.Object)
		if err != nil {
			return nil, err
		}
		return []string{"  - create: " + string(b)}, nil
	case engine.Delete:
		return append([]string{"  - delete: " + a.Ref.String()}, deleteOptionsYAML(a.Options)...), nil
	case engine.Patch:
		return []string{"  - patch: " + a.Ref.String(), "    merge: " + string(a.Merge)}, nil
	case engine.Restart:
		return []string{"  - restart: " + a.Controller}, nil
	case engine.RolloutUndo:
		out := []string{"  - rolloutUndo: " + a.Ref.String()}
		if a.ToRevision != 0 {
			out = append(out, fmt.Sprintf("    toRevision: %d", a.ToRevision))
		}
		return out, nil
	case engine.Inject:
		return []string{"  - inject: " + faultYAML(a.Fault)}, nil
	case engine.Exit:
		ex := &scenario.ExitStep{Namespace: a.Namespace, Count: a.Count, Code: a.Code}
		if a.Pod != nil {
			ex.Target = scenario.Ref{Ref: *a.Pod}
		} else if a.Selector != nil {
			sel, err := scenario.ParseSelector(a.Selector.String())
			if err != nil {
				return nil, err
			}
			ex.Selector = sel
		}
		out := []string{"  - exit: " + exitYAML(ex)}
		if a.Code != 0 {
			out = append(out, fmt.Sprintf("    code: %d", a.Code))
		}
		return out, nil
	}
	return nil, fmt.Errorf("cannot write %q as a scenario step", a.String())
}

func faultYAML(f fakeapi.Fault) string {
	obj := f.Kind
	if f.Name != "" {
		obj = fakeapi.RefString(f.Kind, f.Namespace, f.Name)
	}
	return fmt.Sprintf("{verb: %s, object: %s, error: %s, times: %d}", f.Verb, obj, f.Reason, max(f.Times, 1))
}

func deleteOptionsYAML(o *fakeapi.DeleteOptions) []string {
	if o == nil {
		return nil
	}
	var out []string
	if o.PropagationPolicy != nil {
		out = append(out, "    propagationPolicy: "+string(*o.PropagationPolicy))
	}
	if o.OrphanDependents != nil {
		out = append(out, "    orphanDependents: "+strconv.FormatBool(*o.OrphanDependents))
	}
	if o.GracePeriodSeconds != nil {
		out = append(out, "    gracePeriodSeconds: "+strconv.FormatInt(*o.GracePeriodSeconds, 10))
	}
	if p := o.Preconditions; p != nil && (p.UID != nil || p.ResourceVersion != nil) {
		var parts []string
		if p.UID != nil {
			parts = append(parts, "uid: "+strconv.Quote(*p.UID))
		}
		if p.ResourceVersion != nil {
			parts = append(parts, "resourceVersion: "+strconv.Quote(*p.ResourceVersion))
		}
		out = append(out, "    preconditions: {"+strings.Join(parts, ", ")+"}")
	}
	if len(o.DryRun) > 0 {
		out = append(out, "    dryRun: ["+strings.Join(o.DryRun, ", ")+"]")
	}
	return out
}

// stepYAML writes a parsed scenario step back as YAML.
func stepYAML(st *scenario.Step) []string {
	var out []string
	switch st.Action {
	case scenario.ActionCreate:
		b, _ := json.Marshal(st.Create.Object)
		out = []string{"  - create: " + string(b)}
	case scenario.ActionDelete:
		out = append([]string{"  - delete: " + st.Target.String()}, deleteOptionsYAML(st.DeleteOptions)...)
	case scenario.ActionPatch:
		out = []string{"  - patch: " + st.Target.String(), "    merge: " + string(st.Merge)}
	case scenario.ActionStep:
		if st.Queue != "" {
			out = []string{fmt.Sprintf("  - {step: %d, queue: %s}", st.Count, st.Queue)}
		} else {
			out = []string{fmt.Sprintf("  - step: %d", st.Count)}
		}
	case scenario.ActionSettle:
		if st.MaxSteps != 0 && st.MaxSteps != scenario.DefaultMaxSteps {
			out = []string{fmt.Sprintf("  - settle: {maxSteps: %d}", st.MaxSteps)}
		} else {
			out = []string{"  - settle: {}"}
		}
	case scenario.ActionAdvance:
		out = []string{"  - advance: " + st.Duration.String()}
	case scenario.ActionRestart:
		out = []string{"  - restart: " + st.Controller}
	case scenario.ActionInject:
		f := st.Fault
		if st.Target.UID != "" {
			f.Kind, f.Name = "", ""
			out = []string{fmt.Sprintf("  - inject: {verb: %s, object: %s, error: %s, times: %d}", f.Verb, st.Target.String(), f.Reason, max(f.Times, 1))}
		} else {
			out = []string{"  - inject: " + faultYAML(f)}
		}
	case scenario.ActionExit:
		out = []string{"  - exit: " + exitYAML(st.Exit)}
		if st.Exit.Code != 0 {
			out = append(out, fmt.Sprintf("    code: %d", st.Exit.Code))
		}
	}
	if st.ExpectsError() && len(out) > 0 {
		if st.ExpectNoReason {
			out = append(out, `    expectError: ""`)
		} else {
			out = append(out, "    expectError: "+string(st.ExpectError))
		}
	}
	return out
}

// CheckResult is the grade of a hand-in.
type CheckResult struct {
	// Grade is the grade of the world the hand-in leaves; nil when it does
	// not run.
	Grade *Grade
	// NotTheLesson says how the hand-in does not start from the lesson's
	// world, or is "".
	NotTheLesson string
	// RunError is the failure of a step of the hand-in, or nil.
	RunError error
}

// Passed reports whether the hand-in reaches the goal.
func (r *CheckResult) Passed() bool {
	return r.NotTheLesson == "" && r.RunError == nil && r.Grade != nil && r.Grade.Passed
}

// Check grades a hand-in: a scenario file that must start from the
// lesson's world (its objects, then its set-up steps) and then does
// whatever the learner did. A file that is not a valid scenario is an
// error (a scenario.ErrorList).
func (g *Grader) Check(l *Lesson, file string, data []byte) (*CheckResult, error) {
	sc, err := scenario.Parse(file, data)
	if err != nil {
		return nil, err
	}
	res := &CheckResult{}
	if why := l.startsFrom(sc); why != "" {
		res.NotTheLesson = why
		return res, nil
	}
	run, err := runScenario(sc, false)
	if run == nil {
		return nil, err
	}
	res.RunError = err
	res.Grade = g.Grade(l, run.World, run.Records)
	return res, nil
}

// startsFrom says how sc does not start from the lesson's world, or "".
func (l *Lesson) startsFrom(sc *scenario.Scenario) string {
	w := l.World
	if !slices.Equal(sc.Controllers, w.Controllers) {
		return fmt.Sprintf("it runs the controllers %s; the lesson runs %s", controllersText(sc.Controllers), controllersText(w.Controllers))
	}
	if len(sc.Kinds) != len(w.Kinds) {
		return "it declares other custom kinds than the lesson"
	}
	for i, k := range w.Kinds {
		if sc.Kinds[i].APIVersion != k.APIVersion || sc.Kinds[i].Kind != k.Kind || sc.Kinds[i].Scope != k.Scope {
			return "it declares other custom kinds than the lesson"
		}
	}
	if len(sc.Objects) < len(w.Objects) {
		return fmt.Sprintf("it has %d objects; the lesson's world has %d", len(sc.Objects), len(w.Objects))
	}
	for i, m := range w.Objects {
		a, _ := json.Marshal(m.Object)
		b, _ := json.Marshal(sc.Objects[i].Object)
		if string(a) != string(b) {
			return fmt.Sprintf("objects[%d] is %s, not the lesson's %s as the lesson writes it", i, sc.Objects[i].Object, m.Object)
		}
	}
	if len(sc.Objects) > len(w.Objects) {
		return fmt.Sprintf("it adds objects to the lesson's world (objects[%d], %s): create them in steps instead", len(w.Objects), sc.Objects[len(w.Objects)].Object)
	}
	if len(sc.Steps) < len(w.Steps) {
		return fmt.Sprintf("it lacks the lesson's %d set-up steps", len(w.Steps))
	}
	for i := range w.Steps {
		if sc.Steps[i].Describe() != w.Steps[i].Describe() {
			return fmt.Sprintf("steps[%d] is %q; the lesson's set-up has %q there", i, sc.Steps[i].Describe(), w.Steps[i].Describe())
		}
	}
	return ""
}

func controllersText(c []string) string {
	if c == nil {
		return "(all)"
	}
	return "[" + strings.Join(c, ", ") + "]"
}

// exitYAML is the body of an exit step: the Pod, or the selector form.
func exitYAML(ex *scenario.ExitStep) string {
	if ex.Target.Name != "" || ex.Target.UID != "" {
		return ex.Target.String()
	}
	b, _ := json.Marshal(ex.Selector.String())
	s := "{selector: " + string(b) + ", namespace: " + ex.Namespace
	if ex.Count > 0 {
		s += fmt.Sprintf(", count: %d", ex.Count)
	}
	return s + "}"
}
