package engine

import (
	"time"

	"github.com/gcplay/gcplay/fakeapi"
)

// Config describes a new world.
type Config struct {
	// Kinds are extra (custom) kinds to serve besides the built-in ones.
	Kinds []fakeapi.KindInfo
	// Controllers lists the controllers that run; nil means all that
	// gcplay has.
	Controllers []string
	// CheckInvariants makes every action verify the collector's graph
	// invariant (R35) afterwards and fail when it is broken. Tests set it.
	CheckInvariants bool
	// Restore are objects put into storage as they are (fakeapi
	// Store.Restore) before the controllers start, so that the
	// controllers meet them as after a kube-controller-manager restart:
	// with a fresh list. An imported cluster dump starts this way.
	Restore []*fakeapi.Object
}

// Reason explains one decision: a short code, one plain sentence, the
// GC-RULES rule and the upstream function it follows.
type Reason struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Rule    string `json:"rule,omitempty"`
	Func    string `json:"func,omitempty"`
	// Texts are Message in its one text form: its sentences, each an
	// English form and its values (see Text), one after the other.
	// Message is their English; a language renders them in its words
	// (Render). Every reason the engine gives has them.
	Texts []Text `json:"-"`
}

// Enqueue records an item put on a queue by a step.
type Enqueue struct {
	Queue string `json:"queue"`
	Item  string `json:"item"`
	// After is the rate-limit delay before the item is due (0: now).
	After time.Duration `json:"after,omitempty"`
}

// Record is what one step or user action did.
type Record struct {
	// Seq numbers records from 1 within a world.
	Seq int `json:"seq"`
	// At is the virtual time elapsed since the world started.
	At time.Duration `json:"at"`
	// Actor is "user", a queue name, or a controller name.
	Actor string `json:"actor"`
	// Item describes what was taken or done.
	Item   string `json:"item"`
	Reason Reason `json:"reason"`
	// calls are the API requests the step made (see Calls).
	calls []call
	// enqueued is what the step added to queues (see Enqueued).
	enqueued []enqueue
	// Changed lists the UIDs of objects and graph nodes the step changed,
	// sorted.
	Changed []string `json:"changed,omitempty"`
	// Notes are the secondary decisions of the step, in order.
	Notes []string `json:"notes,omitempty"`
	// Err is the error the action returned, if any.
	Err string `json:"error,omitempty"`
	// w is the recorder while the record is being written (see Note).
	w *recorder
}

// NodeView is a read-only copy of one uidToNode entry.
type NodeView struct {
	UID                string
	APIVersion         string
	Kind               string
	Namespace          string
	Name               string
	Virtual            bool
	BeingDeleted       bool
	DeletingDependents bool
	Owners             []fakeapi.OwnerReference
	// Dependents are the UIDs of the node's dependents, sorted.
	Dependents []string
}

// Flags names the node's flags that are set, in the order of upstream's
// debug graph (beingDeleted, deletingDependents, virtual): the one form the
// DOT and Mermaid exports, the TUI and the grader show.
func (n NodeView) Flags() []string {
	return nodeFlags(n.BeingDeleted, n.DeletingDependents, n.Virtual)
}

func nodeFlags(beingDeleted, deletingDependents, virtual bool) []string {
	var out []string
	if beingDeleted {
		out = append(out, "beingDeleted")
	}
	if deletingDependents {
		out = append(out, "deletingDependents")
	}
	if virtual {
		out = append(out, "virtual")
	}
	return out
}

// QueueItem is one entry of a queue, in order.
type QueueItem struct {
	Item string
	UID  string
	// Due is when a rate-limited item becomes ready; zero if ready now.
	Due time.Duration
	// Waiting is true for items still waiting for their rate-limit delay.
	Waiting bool
	// Failures is the item's rate-limiter failure count.
	Failures int
}
