package lessons

import (
	"strings"
	"testing"
)

const minimalLesson = `# a comment before the first key
name: tiny
controllers: [garbagecollector]
objects:
  - {apiVersion: v1, kind: ConfigMap, metadata: {name: owner}}
steps:
  - settle: {}
goal:
  absent: [ConfigMap/owner]
solution: [{delete: ConfigMap/owner}, {settle: {}}]
wrong:
  - id: nothing
    steps:
      - settle: {}
    explains: [still in storage]
  - id: orphan
    steps:
      - delete: ConfigMap/owner
        propagationPolicy: Orphan
      - settle: {}
    explains: [gone]
`

func TestParseLesson(t *testing.T) {
	l, err := ParseLesson("tiny.yaml", []byte(minimalLesson))
	if err != nil {
		t.Fatal(err)
	}
	if l.ID != "tiny" || len(l.World.Objects) != 1 || len(l.World.Steps) != 1 || !l.Settled {
		t.Errorf("world: %+v", l.World)
	}
	if len(l.Goal.Absent) != 1 || len(l.Solution) != 2 || len(l.Wrong) != 2 || l.Wrong[1].ID != "orphan" || len(l.Wrong[1].Steps) != 2 {
		t.Errorf("lesson keys: goal %+v solution %d wrong %+v", l.Goal, len(l.Solution), l.Wrong)
	}
	// What was parsed carries the course file's lines, not those of the
	// sub-documents the keys are parsed through.
	lines := map[string]int{
		"goal.absent[0]":    l.Goal.Absent[0].Line,
		"solution[1]":       l.Solution[1].Line,
		"wrong[1].steps[0]": l.Wrong[1].Steps[0].Line,
		"wrong[0].steps[0]": l.Wrong[0].Steps[0].Line,
	}
	want := map[string]int{"goal.absent[0]": 9, "solution[1]": 10, "wrong[1].steps[0]": 18, "wrong[0].steps[0]": 14}
	for k, w := range want {
		if lines[k] != w {
			t.Errorf("%s: line %d, want %d", k, lines[k], w)
		}
	}
}

// TestParseLessonErrors: errors name the course file's own line and a
// lesson field path, whichever part of the file they are in.
func TestParseLessonErrors(t *testing.T) {
	cases := []struct {
		name, old, new, want string
	}{
		{"unknown lesson key", "goal:\n", "gaol:\n", `tiny.yaml:8: unknown key "gaol" (did you mean "goal"?)`},
		{"in the world", "metadata: {name: owner}", "metadata: {nme: owner}", `tiny.yaml:5: objects[0].metadata: unknown key "nme"`},
		{"in the goal", "  absent: [ConfigMap/owner]", "  absnt: [ConfigMap/owner]", `tiny.yaml:9: goal: unknown key "absnt" (did you mean "absent"?)`},
		{"a flow list", "{delete: ConfigMap/owner}, {settle: {}}", "{delete: ConfigMap/owner}, {setle: {}}", `tiny.yaml:10: solution[1]: unknown key "setle"`},
		{"a wrong answer", "        propagationPolicy: Orphan", "        propagationPolcy: Orphan", `tiny.yaml:19: wrong[1].steps[0]: unknown key "propagationPolcy"`},
		{"a queue goal", "  absent: [ConfigMap/owner]", "  queues: {attemptToDelete: []}", `tiny.yaml:9: goal.queues: a goal cannot check queues`},
		{"an expect in the set-up", "  - settle: {}\ngoal", "  - expect: {absent: [ConfigMap/owner]}\ngoal", `tiny.yaml:6: steps: the set-up may not check anything`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(minimalLesson, c.old, c.new, 1)
			if src == minimalLesson {
				t.Fatalf("the case changes nothing")
			}
			_, err := ParseLesson("tiny.yaml", []byte(src))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v\nwant it to contain %q", err, c.want)
			}
		})
	}
}

func TestParseText(t *testing.T) {
	_, err := ParseText("t.yaml", []byte("title: x\nhint: [a]\n"))
	if err == nil || !strings.Contains(err.Error(), "t.yaml:2: field hint not found") {
		t.Errorf("a misspelt key is not an error with its line: %v", err)
	}
}

func TestFind(t *testing.T) {
	c := Builtin()
	for name, want := range map[string]string{"1": "owners-and-dependents", "06": "two-owners", "cycles": "cycles",
		"redel": "redelete", "12-cycles.yaml": "cycles"} {
		l, err := c.Find(name)
		if err != nil || l.ID != want {
			t.Errorf("Find(%q) = %v, %v; want %s", name, l, err, want)
		}
	}
	if _, err := c.Find("o"); err == nil || !strings.Contains(err.Error(), "could be any of") {
		t.Errorf("an ambiguous prefix: %v", err)
	}
}
