package tui

import (
	"regexp"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"github.com/gcplay/gcplay/lessons"
)

// lessonTextKeyRE finds the keys a lesson's words tell the learner to
// press: "press f", "按 r", "(d, o)", "(r)", "s steps", "R restarts".
var lessonTextKeyRE = regexp.MustCompile(`(?:[Pp]ress|按) ([^\s,.，。、：:（()）]+)|(?:^|[\s（(])[(（](\S)(?:[,、]\s?(\S))?[)）]|(?:^|\s)(\S{1,5}) (?:deletes|steps|runs|gives|explains|restarts|goes back)\b`)

// TestLessonTextKeys: every key a lesson's text (in every language) tells
// the learner to press works where the learner is then: the playground,
// the lesson's keys, the delete picker and the command bar.
func TestLessonTextKeys(t *testing.T) {
	var bindings []key.Binding
	bindings = append(bindings, helpOfEveryPane(t)...)
	bindings = append(bindings, lessonKeys.bindings()...)
	bindings = append(bindings, pickerKeys.bindings()...)
	bindings = append(bindings, commandKeys.bindings()...)
	bindings = append(bindings, bind("↑ ↓", "", "up", "down"))
	c := lessons.Builtin()
	found := 0
	for _, l := range c.Lessons {
		for _, loc := range c.Locales {
			tx := l.T(loc)
			texts := append([]string{tx.Intro, tx.Goal, tx.Predict, tx.Solution}, tx.Hints...)
			for _, s := range texts {
				s = strings.Join(strings.Fields(s), " ")
				for _, m := range lessonTextKeyRE.FindAllStringSubmatch(s, -1) {
					for _, k := range m[1:] {
						k = strings.Trim(k, "(（")
						if !keyLike.MatchString(k) {
							continue // a word, not a key: "it deletes"
						}
						found++
						if !bound(k, bindings) {
							t.Errorf("lesson %d (%s) tells the learner to press %q, which no key map binds: %q", l.Number, loc, k, m[0])
						}
					}
				}
			}
		}
	}
	if found < 20 {
		t.Errorf("only %d keys found in the lessons' words: the pattern no longer finds them", found)
	}
}
