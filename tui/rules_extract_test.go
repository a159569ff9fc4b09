package tui

import (
	"regexp"
	"strings"
)

var (
	ruleStartRE = regexp.MustCompile(`^- \*\*([RN]\d+)\*\*\s*(.*)$`)
	listItemRE  = regexp.MustCompile(`^\s*(?:-|\d+\.)\s+`)
)

// extractRules turns the specification (docs/GC-RULES.md) into the form
// of rules.txt: a header, then for each rule its id on one line and its
// text below, Markdown emphasis removed, each list item (sub-bullet or
// numbered step), table row and paragraph on a line of its own; the
// lines a paragraph or item is wrapped on are joined.
func extractRules(spec string) string {
	var b strings.Builder
	b.WriteString("# The rules of docs/GC-RULES.md, one block per rule, for the\n")
	b.WriteString("# timeline's explain view. Generated: go test ./tui -run TestRulesText -update-rules\n")
	var id string
	var lines []string
	blank := false // the previous line was empty: a new paragraph starts
	clean := strings.NewReplacer("**", "", "`", "")
	flush := func() {
		if id != "" {
			b.WriteString("\n" + id + "\n")
			for _, l := range lines {
				b.WriteString(clean.Replace(strings.Join(strings.Fields(l), " ")) + "\n")
			}
		}
		id, lines = "", nil
	}
	for _, line := range strings.Split(spec, "\n") {
		if m := ruleStartRE.FindStringSubmatch(line); m != nil {
			flush()
			id, lines, blank = m[1], []string{m[2]}, false
			continue
		}
		if id == "" {
			continue
		}
		trimmed := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		switch {
		case strings.HasPrefix(line, "#"), strings.HasPrefix(line, "---"),
			indent == 0 && trimmed != "":
			flush()
		case trimmed == "":
			blank = true
			continue
		case listItemRE.MatchString(line):
			marker := listItemRE.FindString(line)
			lines = append(lines, strings.TrimSpace(marker)+" "+strings.TrimSpace(line[len(marker):]))
		case strings.HasPrefix(trimmed, "|"), blank:
			lines = append(lines, trimmed) // a table row, or a new paragraph of the rule
		default:
			lines[len(lines)-1] += " " + trimmed
		}
		blank = false
	}
	flush()
	return b.String()
}
