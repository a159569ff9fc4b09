// Package scenario reads, checks and runs gcplay scenario files, the
// public format described in docs/SCENARIO-FORMAT.md: a starting world of
// Kubernetes manifests, then steps that act on it (create, delete, patch,
// step, settle, advance, restart, inject) and check it (expect).
//
// Parse validates a whole file strictly and reports every problem with
// file, line and field path ("two-owners.yaml:14: steps[2].expect: unknown
// key "absnt" (did you mean "absent"?)"). Run executes a parsed scenario
// in a fresh engine.World and stops at the first step that does not hold,
// with a message that names the file, the line, the step and what was
// expected against what was found. Save writes a running world back as a
// scenario. The same interpreter serves `gcplay run`, lessons, the TUI's
// save and load, and the tests.
//
// Steps are numbered from 0, as in the field paths: "step 3" is steps[3];
// "object 2" is objects[2]. Expectations read storage through the
// apiserver's introspection (no API requests, so injected faults do not
// touch them) and the collector's graph and queues through the World's
// views. A queue expectation lists every item of the queue, including
// rate-limited items still waiting for their delay.
//
// Run is deterministic: no map order reaches its output, and the same
// scenario gives a byte-identical trace and Result.
package scenario
