package scenario

import "github.com/gcplay/gcplay/fakeapi"

// AddCommandSteps appends the steps `gcplay run -f FILE [--delete
// TYPE/NAME]` runs after the file's own: a settle, so that the controllers
// (started on a dump's objects as after a kube-controller-manager restart)
// come to rest; then, when target is set, its delete with policy ("" for
// the apiserver's default) and a settle. The file has no line for these
// steps: each is labelled with the flag that asked for it. A settle has
// the bound what-if's have (settleBound).
func (s *Scenario) AddCommandSteps(target *Ref, policy string) {
	maxSteps := settleBound(s.Restore, s.Objects)
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

// settleBound is the bound of a settle of a world built from a file's
// objects (a dump's): the usual bound, ten steps an object, and the
// square of each owner's number of dependents. A foreground delete makes
// the collector look at an owner's remaining dependents again each time
// one of them is removed (processDeletingDependentsItem queues every
// blocking dependent not itself deleting its dependents), so its steps
// grow as that square, past the usual bound and ten an object for a
// Deployment of a few hundred replicas.
func settleBound(groups ...[]Manifest) int {
	n := 0
	dependents := map[string]int{}
	for _, g := range groups {
		n += len(g)
		for _, m := range g {
			for _, r := range m.Object.Metadata.OwnerReferences {
				dependents[r.UID]++
			}
		}
	}
	bound := DefaultMaxSteps + 10*n
	for _, k := range dependents {
		bound += k * k
	}
	return bound
}
