package randworld

import "slices"

// Smaller returns the worlds one simplification away from w, the largest
// cuts first: without one action, without one object (the actions on it
// go too), without one owner reference, without one finalizer, with a
// settle after an action that had none. A minimiser keeps the first that
// still shows what it looks for, and asks again.
func (w *World) Smaller() []*World {
	var out []*World
	for i := range w.Actions {
		c := w.clone()
		c.Actions = slices.Delete(c.Actions, i, i+1)
		out = append(out, c)
	}
	if len(w.Objects) > 1 {
		for i := range w.Objects {
			out = append(out, w.withoutObject(i))
		}
	}
	for i, o := range w.Objects {
		for j := range o.Owners {
			c := w.clone()
			c.Objects[i].Owners = slices.Delete(c.Objects[i].Owners, j, j+1)
			out = append(out, c)
		}
	}
	for i, o := range w.Objects {
		for j := range o.Finalizers {
			c := w.clone()
			c.Objects[i].Finalizers = slices.Delete(c.Objects[i].Finalizers, j, j+1)
			out = append(out, c)
		}
	}
	for i, a := range w.Actions {
		if a.Create != nil {
			for j := range a.Create.Owners {
				c := w.clone()
				c.Actions[i].Create.Owners = slices.Delete(c.Actions[i].Create.Owners, j, j+1)
				out = append(out, c)
			}
		}
		if a.NoSettle && i < len(w.Actions)-1 {
			c := w.clone()
			c.Actions[i].NoSettle = false
			out = append(out, c)
		}
	}
	return out
}

// Size counts what Smaller can take away, so that a minimiser can say how
// much it took.
func (w *World) Size() int {
	n := len(w.Objects) + len(w.Actions)
	for _, o := range w.all() {
		n += len(o.Owners) + len(o.Finalizers)
	}
	return n
}

// withoutObject removes object i; references to it stay (they dangle, with
// its UID), and the actions on it go.
func (w *World) withoutObject(i int) *World {
	c := w.clone()
	c.Objects = slices.Delete(c.Objects, i, i+1)
	var acts []Action
	for _, a := range c.Actions {
		if a.Create == nil {
			switch {
			case a.Target == i:
				continue
			case a.Target > i:
				a.Target--
			}
		}
		acts = append(acts, a)
	}
	c.Actions = acts
	return c
}

// clone copies the world deeply enough for Smaller's edits.
func (w *World) clone() *World {
	c := *w
	c.Objects = make([]*Object, len(w.Objects))
	for i, o := range w.Objects {
		c.Objects[i] = o.clone()
	}
	c.Actions = slices.Clone(w.Actions)
	for i := range c.Actions {
		if c.Actions[i].Create != nil {
			c.Actions[i].Create = c.Actions[i].Create.clone()
		}
	}
	return &c
}

func (o *Object) clone() *Object {
	c := *o
	c.Finalizers = slices.Clone(o.Finalizers)
	c.Owners = slices.Clone(o.Owners)
	return &c
}
