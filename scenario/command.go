package scenario

import "github.com/gcplay/gcplay/fakeapi"

// AddCommandSteps appends the steps `gcplay run -f FILE [--delete
// TYPE/NAME]` runs after the file's own: a settle, so that the controllers
// (started on a dump's objects as after a kube-controller-manager restart)
// come to rest; then, when target is set, its delete with policy ("" for
// the apiserver's default) and a settle. The file has no line for these
// steps: each is labelled with the flag that asked for it. A settle may take ten
// steps per object of the file on top of the usual bound, as what-if's do.
func (s *Scenario) AddCommandSteps(target *Ref, policy string) {
	maxSteps := DefaultMaxSteps + 10*(len(s.Restore)+len(s.Objects))
	next := len(s.Steps)
	add := func(label string, st Step) {
		st.Index, st.Label = next, label
		next++
		s.Steps = append(s.Steps, st)
	}
	add("-f", Step{Action: ActionSettle, MaxSteps: maxSteps})
	if target == nil {
		return
	}
	opts := &fakeapi.DeleteOptions{}
	if policy != "" {
		p := fakeapi.DeletionPropagation(policy)
		opts.PropagationPolicy = &p
	}
	add("--delete", Step{Action: ActionDelete, Target: *target, DeleteOptions: opts})
	add("--delete", Step{Action: ActionSettle, MaxSteps: maxSteps})
}
