package scenario

import (
	"fmt"
	"strings"
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// Scenario is a parsed, validated scenario file. Everything a run needs
// is resolved: kinds are canonical, namespaces defaulted, options typed.
type Scenario struct {
	// File is the name given to Parse, used in every message.
	File        string
	Name        string
	Description string
	// Kinds are the custom kinds declared under kinds, in file order.
	Kinds []fakeapi.KindInfo
	// Controllers lists the controllers to run; nil means all that
	// gcplay has (the key was absent).
	Controllers []string
	// Objects are the starting world, created in order before the steps.
	Objects []Manifest
	// Restore are the objects of an imported cluster dump (ParseDump):
	// stored as they are, before the controllers start, which then meet
	// them as after a kube-controller-manager restart. Objects follow.
	Restore []Manifest
	// Notes say what an import made of the dump that the dump did not
	// say itself (kinds taken as custom kinds, namespaces added), for the
	// screen.
	Notes []string
	Steps []Step
}

// Manifest is one object of the file, with where it was written.
type Manifest struct {
	Object *fakeapi.Object
	Line   int
	// Path is the field path, such as "objects[2]" or "steps[4].create".
	Path string
}

// Action names what a step does: its one action key.
type Action string

// The step actions, as the file's keys spell them.
const (
	ActionCreate  Action = "create"
	ActionDelete  Action = "delete"
	ActionPatch   Action = "patch"
	ActionStep    Action = "step"
	ActionSettle  Action = "settle"
	ActionAdvance Action = "advance"
	ActionRestart Action = "restart"
	ActionInject  Action = "inject"
	ActionExpect  Action = "expect"
	ActionExit    Action = "exit"
	// ActionRolloutUndo is kubectl rollout undo of a Deployment,
	// StatefulSet or DaemonSet.
	ActionRolloutUndo Action = "rolloutUndo"
)

// actions lists every action key, in the spec's order.
var actions = []Action{ActionCreate, ActionDelete, ActionPatch, ActionStep, ActionSettle,
	ActionAdvance, ActionRestart, ActionInject, ActionExpect, ActionExit, ActionRolloutUndo}

// DefaultMaxSteps is the settle bound when a step gives no maxSteps.
const DefaultMaxSteps = 100000

// Step is one entry of steps. Action says which of the action fields is
// set.
type Step struct {
	// Index is the position in steps, from 0; messages say "step Index".
	Index int
	// Label names a step the file does not hold (AddCommandSteps) in
	// messages and the trace, instead of "step Index"; its Line is 0.
	Label  string
	Line   int
	Action Action
	// ExpectError is the reason the action must fail with ("" when it
	// must succeed, unless ExpectNoReason is set).
	ExpectError fakeapi.Reason
	// ExpectNoReason is set by `expectError: ""`: the action must fail
	// with an answer of the apiserver whose Status has the empty reason
	// (metav1.StatusReasonUnknown: a 500 made of a plain error, see
	// fakeapi.NewUnknownError). ExpectsError, ErrorExpected and
	// ExpectedError read both fields.
	ExpectNoReason bool

	// Create is the manifest of a create step.
	Create *Manifest
	// Target is the object of a delete or patch step.
	Target Ref
	// DeleteOptions are the options of a delete step (never nil).
	DeleteOptions *fakeapi.DeleteOptions
	// Merge is the JSON merge patch of a patch step.
	Merge []byte
	// Count is N of a step step; Queue its optional queue.
	Count int
	Queue string
	// MaxSteps bounds a settle step.
	MaxSteps int
	// Duration is the advance of an advance step.
	Duration time.Duration
	// Controller is what a restart step restarts.
	Controller string
	// Fault is the fault of an inject step; Target names its object when
	// the step gave a reference rather than a bare kind.
	Fault fakeapi.Fault
	// Expect holds the checks of an expect step.
	Expect *Expect
	// Exit is the body of an exit step.
	Exit *ExitStep
	// ToRevision is the revision a rolloutUndo step goes back to (0: the
	// previous one).
	ToRevision int64
}

// Describe returns the step in one line, as the trace shows it.
// ExpectsError reports whether the step must fail (it has an
// expectError).
func (s *Step) ExpectsError() bool { return s.ExpectError != "" || s.ExpectNoReason }

// ErrorExpected reports whether err is the failure the step's expectError
// names: an error with that reason, or, for `expectError: ""`, an answer
// of the apiserver with no reason (not an error of gcplay's own).
func (s *Step) ErrorExpected(err error) bool {
	switch {
	case err == nil:
		return false
	case s.ExpectNoReason:
		return fakeapi.IsStatus(err) && fakeapi.ReasonOf(err) == ""
	default:
		return s.ExpectError != "" && fakeapi.ReasonOf(err) == s.ExpectError
	}
}

// ExpectedError words the failure the step expects, for messages: its
// reason, or `"" (no reason)`.
func (s *Step) ExpectedError() string {
	if s.ExpectNoReason {
		return `"" (no reason)`
	}
	return string(s.ExpectError)
}

func (s *Step) Describe() string {
	switch s.Action {
	case ActionCreate:
		o := s.Create.Object
		if o.Metadata.Name == "" {
			return "create " + fakeapi.RefString(o.Kind, o.Metadata.Namespace, o.Metadata.GenerateName+"*")
		}
		return "create " + o.String()
	case ActionDelete:
		return "delete " + s.Target.String() + describeDeleteOptions(s.DeleteOptions)
	case ActionPatch:
		return "patch " + s.Target.String() + " " + string(s.Merge)
	case ActionStep:
		d := "step " + itoa(s.Count)
		if s.Queue != "" {
			d += " from " + s.Queue
		}
		return d
	case ActionSettle:
		return "settle"
	case ActionAdvance:
		return "advance " + s.Duration.String()
	case ActionRestart:
		return "restart " + s.Controller
	case ActionInject:
		f := s.Fault
		return "inject " + string(f.Reason) + " on " + f.Verb + " " + describeFaultTarget(s) + " x" + itoa(f.Times)
	case ActionExpect:
		return "expect"
	case ActionExit:
		return s.Exit.describe()
	case ActionRolloutUndo:
		d := "rollout undo " + s.Target.String()
		if s.ToRevision != 0 {
			d += " --to-revision=" + itoa(int(s.ToRevision))
		}
		return d
	}
	return string(s.Action)
}

func describeFaultTarget(s *Step) string {
	if s.Target.UID != "" || s.Target.Name != "" {
		return s.Target.String()
	}
	return s.Fault.Kind
}

// Expect is the parsed body of an expect step. Every list keeps file
// order.
type Expect struct {
	Exists          []RefCheck
	Absent          []RefCheck
	Terminating     []RefCheck
	NotTerminating  []RefCheck
	Finalizers      []FinalizersCheck
	OwnerReferences []OwnersCheck
	DeletionOrder   *OrderCheck
	Events          []EventCheck
	NoEvents        []RefCheck
	Graph           []GraphCheck
	Queues          []QueueCheck
	Count           []CountCheck
	Fields          []FieldCheck
}

// RefCheck is one reference of a list check (exists, absent, ...).
type RefCheck struct {
	Ref  Ref
	Line int
}

// FinalizersCheck expects an object's exact finalizer list.
type FinalizersCheck struct {
	Ref        Ref
	Line       int
	Finalizers []string
}

// OwnersCheck expects an object's exact set of owners.
type OwnersCheck struct {
	Ref    Ref
	Line   int
	Owners []OwnerExpectation
}

// OwnerExpectation is one expected owner, with the flags that must match
// when given.
type OwnerExpectation struct {
	Owner              Ref
	Controller         *bool
	BlockOwnerDeletion *bool
}

// OrderCheck expects objects to be absent and removed in this order.
type OrderCheck struct {
	Refs []Ref
	Line int
}

// EventCheck expects a recorded Event; empty fields match anything, and
// Message is a substring.
type EventCheck struct {
	Object  Ref
	Type    string
	Reason  string
	Message string
	Line    int
}

// Matches reports whether an event with this type, reason and message is
// one the check expects: each field given must match (the message as a
// substring).
func (ec EventCheck) Matches(typ, reason, message string) bool {
	return (ec.Type == "" || typ == ec.Type) && (ec.Reason == "" || reason == ec.Reason) &&
		strings.Contains(message, ec.Message)
}

// Describe says what the check expects: "an event with type Warning,
// reason X, message containing "y"".
func (ec EventCheck) Describe() string {
	var want []string
	if ec.Type != "" {
		want = append(want, "type "+ec.Type)
	}
	if ec.Reason != "" {
		want = append(want, "reason "+ec.Reason)
	}
	if ec.Message != "" {
		want = append(want, fmt.Sprintf("message containing %q", ec.Message))
	}
	if len(want) == 0 {
		return "an event"
	}
	return "an event with " + strings.Join(want, ", ")
}

// GraphCheck expects flags of a uidToNode entry.
type GraphCheck struct {
	Ref                Ref
	Line               int
	Virtual            *bool
	BeingDeleted       *bool
	DeletingDependents *bool
	Absent             *bool
}

// QueueCheck expects a queue's exact contents, front first.
type QueueCheck struct {
	Queue string
	Line  int
	Items []Ref
}

// CountCheck expects the number of stored objects that match.
type CountCheck struct {
	Index     int
	Line      int
	Kind      string
	Namespace string
	Selector  Selector
	OwnedBy   *Ref
	// Terminating, when set, keeps only (non-)terminating objects.
	Terminating *bool
	Equals      int
}
