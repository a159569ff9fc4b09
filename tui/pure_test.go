package tui

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestViewIsPure: drawing changes nothing (issue 13: View changed state).
// In every view of the golden files, and in each of a lesson's overlays,
// View drawn twice draws the same, and leaves the model's own fields as
// they were (the frame cache behind its pointer is a memo, not state).
func TestViewIsPure(t *testing.T) {
	states := map[string][]string{
		"start":         nil,
		"collector":     {"d", "1", "s", "s", "tab"},
		"inspector":     {"tab", "tab"},
		"timeline":      {"d", "1", "r", "left", "left", "left", "tab", "tab", "tab"},
		"delete-picker": {"d"},
		"help":          {"?", "j", "j"},
		"explain":       {"d", "1", "s", "e"},
		"command":       {":", "d", "e", "l", "tab"},
		"resize-after":  {"d", "1", "r", "G"},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}, {60, 20}} {
		for name, keys := range states {
			m, _ := newTest(t, size[0], size[1])
			press(t, m, keys...)
			before := *m
			first, second := screen(m), screen(m)
			if first != second {
				t.Errorf("%s at %dx%d: the second View differs from the first:\n%s\n---\n%s", name, size[0], size[1], first, second)
			}
			if d := changedFields(before, *m); d != nil {
				t.Errorf("%s at %dx%d: View changed the model's %v", name, size[0], size[1], d)
			}
		}
	}
	lessonStates := map[string]struct {
		lesson string
		keys   []string
	}{
		"text":     {"1", nil},
		"pane":     {"1", []string{"enter", "H"}},
		"picker":   {"1", []string{"enter", "L", "j"}},
		"solution": {"two-owners", []string{"enter", "A"}},
		"predict":  {"foreground", []string{"enter", "P", "d"}},
		"result":   {"foreground", []string{"enter", "P", "d", "d", "enter", "r"}},
		"done":     {"1", []string{"enter", "d", "2", "r"}},
		"pg-help":  {"1", []string{"enter", "?"}},
	}
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for name, c := range lessonStates {
			m, _, _ := newLessonTest(t, c.lesson, size[0], size[1])
			lsPress(t, m, c.keys...)
			before, pgBefore := *m, *m.pg
			first, second := lsScreen(m), lsScreen(m)
			if first != second {
				t.Errorf("lesson %s at %dx%d: the second View differs from the first", name, size[0], size[1])
			}
			if d := append(changedFields(before, *m), changedFields(pgBefore, *m.pg)...); d != nil {
				t.Errorf("lesson %s at %dx%d: View changed the model's %v", name, size[0], size[1], d)
			}
		}
	}
}

// changedFields names the fields of two structs of one type that differ
// (pointers compare by address: what they point to is shared; functions
// by their code).
func changedFields[T any](a, b T) []string {
	return diffFields("", reflect.ValueOf(&a).Elem(), reflect.ValueOf(&b).Elem())
}

func diffFields(prefix string, va, vb reflect.Value) []string {
	open := func(f reflect.Value) reflect.Value {
		return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	}
	var out []string
	for i := range va.NumField() {
		fa, fb := open(va.Field(i)), open(vb.Field(i))
		name := prefix + va.Type().Field(i).Name
		switch fa.Kind() {
		case reflect.Struct:
			out = append(out, diffFields(name+".", fa, fb)...)
		case reflect.Func:
			if fa.Pointer() != fb.Pointer() {
				out = append(out, name)
			}
		default:
			if !reflect.DeepEqual(fa.Interface(), fb.Interface()) {
				out = append(out, name)
			}
		}
	}
	return out
}
