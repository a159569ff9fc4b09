package engine

import (
	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/internal/objtable"
	"github.com/gcplay/gcplay/internal/uidmap"
)

// informerStore is the collector's informer store: the last observed state
// of each object, by group, kind, namespace and name, as the collector's
// metadata informers keep it.
//
// Its layout serves a large cascade. Each object's state lives in a cell
// reachable by name and by UID. An update or a delete event finds the
// cell by UID (a slice read for generated UIDs) instead of by name (a
// cache miss in a table of 100,000 names: updating that table was an
// eighth of the 100k cascade). A delete empties the cell and leaves its
// name in place; the emptied names are swept out together, in one pass
// over the table, once they outnumber the live ones. Reads never see an
// emptied cell.
type informerStore struct {
	byName objtable.Table[*informerCell]
	byUID  uidmap.Map[*informerCell]
	// dead counts the emptied cells still in byName.
	dead int
}

// informerCell holds one object's last observed state; nil once deleted.
type informerCell struct{ obj *fakeapi.Object }

// get returns the object stored at k.
func (s *informerStore) get(k objtable.Key) (*fakeapi.Object, bool) {
	c, ok := s.byName.Get(k)
	if !ok || c.obj == nil {
		return nil, false
	}
	return c.obj, true
}

// add stores obj at k (an ADDED event).
func (s *informerStore) add(k objtable.Key, obj *fakeapi.Object) {
	if old, ok := s.byName.Get(k); ok {
		if old.obj == nil {
			s.dead--
		} else {
			s.byUID.Delete(old.obj.Metadata.UID)
		}
	}
	c := &informerCell{obj: obj}
	s.byName.Set(k, c)
	s.byUID.Set(obj.Metadata.UID, c)
}

// update stores obj at k (a MODIFIED event).
func (s *informerStore) update(k objtable.Key, obj *fakeapi.Object) {
	if c, ok := s.byUID.Get(obj.Metadata.UID); ok {
		c.obj = obj
		return
	}
	s.add(k, obj)
}

// remove drops the object at k (a DELETED event).
func (s *informerStore) remove(k objtable.Key, obj *fakeapi.Object) {
	c, ok := s.byUID.Get(obj.Metadata.UID)
	if !ok {
		if c, ok = s.byName.Get(k); !ok || c.obj == nil {
			return
		}
	}
	s.byUID.Delete(c.obj.Metadata.UID)
	c.obj = nil
	s.dead++
	if live := s.byName.Len() - s.dead; s.dead > 1024 && s.dead > live {
		s.sweep()
	}
}

// sweep takes the emptied cells' names out of byName.
func (s *informerStore) sweep() {
	s.byName.DeleteFunc(func(c *informerCell) bool { return c.obj == nil })
	s.dead = 0
}

// clone returns an independent copy: cells are written in place, so the
// copy has cells of its own.
func (s *informerStore) clone() informerStore {
	var c informerStore
	for k, cell := range s.byName.All() {
		if cell.obj != nil {
			c.add(k, cell.obj)
		}
	}
	return c
}
