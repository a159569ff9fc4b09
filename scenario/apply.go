package scenario

import (
	"fmt"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
)

// Apply performs one step's action on d (a world, or a timeline such as the
// playground's), as the format defines it: ownerReferences without uid are
// resolved at create time, uid:<uid> references name the stored object,
// settle and advance run the scheduler. It returns the engine's records in
// order. An expect step does nothing; expectError is the caller's to judge.
func Apply(d engine.Doer, st *Step) ([]engine.Record, error) {
	store := d.World().Store()
	one := func(a engine.Action) ([]engine.Record, error) {
		rec, err := d.Do(a)
		return []engine.Record{rec}, err
	}
	switch st.Action {
	case ActionCreate:
		obj, err := ResolveOwners(store, st.Create.Object)
		if err != nil {
			return nil, err
		}
		return one(engine.Create{Object: obj})
	case ActionDelete:
		ref, err := requestRef(store, st.Target)
		if err != nil {
			return nil, err
		}
		opts := *st.DeleteOptions
		return one(engine.Delete{Ref: ref, Options: &opts})
	case ActionPatch:
		ref, err := requestRef(store, st.Target)
		if err != nil {
			return nil, err
		}
		return one(engine.Patch{Ref: ref, Merge: st.Merge})
	case ActionRolloutUndo:
		ref, err := requestRef(store, st.Target)
		if err != nil {
			return nil, err
		}
		return one(engine.RolloutUndo{Ref: ref, ToRevision: st.ToRevision})
	case ActionStep:
		var recs []engine.Record
		for i := 0; i < st.Count; i++ {
			rec, err := d.Do(engine.Step{Queue: st.Queue})
			recs = append(recs, rec)
			if err != nil {
				return recs, fmt.Errorf("after %d of %s: %w", i, plural(st.Count, "work item"), err)
			}
		}
		return recs, nil
	case ActionSettle:
		res, err := engine.Settle(d, st.MaxSteps)
		return res.Records, settleError(st, err)
	case ActionAdvance:
		res, err := engine.AdvanceBy(d, st.Duration, DefaultMaxSteps)
		return res.Records, err
	case ActionRestart:
		return one(engine.Restart{Controller: st.Controller})
	case ActionInject:
		f := st.Fault
		if st.Target.UID != "" {
			o := store.ByUID(st.Target.UID)
			if o == nil {
				return nil, fakeapi.NewError(fakeapi.ReasonNotFound, "no object with uid %q", st.Target.UID)
			}
			f.Kind, f.Namespace, f.Name = o.Kind, o.Metadata.Namespace, o.Metadata.Name
		}
		return one(engine.Inject{Fault: f})
	case ActionExpect:
		return nil, nil
	case ActionExit:
		a, err := st.Exit.Action(store)
		if err != nil {
			return nil, err
		}
		return one(a)
	}
	return nil, fmt.Errorf("unknown action %q", st.Action)
}

// settleError says which bound a settle step did not settle within.
func settleError(st *Step, err error) error {
	if err != nil {
		return fmt.Errorf("did not settle within maxSteps %d: %w", st.MaxSteps, err)
	}
	return nil
}

// requestRef turns a step's reference into a request reference; uid:<uid>
// names the stored object with that UID.
func requestRef(store *fakeapi.Store, ref Ref) (fakeapi.Ref, error) {
	if ref.UID == "" {
		return ref.Ref, nil
	}
	o := store.ByUID(ref.UID)
	if o == nil {
		return fakeapi.Ref{}, fakeapi.NewError(fakeapi.ReasonNotFound, "no object with uid %q", ref.UID)
	}
	return fakeapi.RefOf(o), nil
}
