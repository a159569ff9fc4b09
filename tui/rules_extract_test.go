package tui

import (
	"regexp"
	"strings"
)

var (
	ruleStartRE = regexp.MustCompile(`^- \*\*(R\d+)\*\*\s*(.*)$`)
	listItemRE  = regexp.MustCompile(`^\s*(?:-|\d+\.)\s+`)
)

// extractRules turns the specification (GC-RULES.md) into the form of
// rules.txt: a header, then for each rule its id on one line and its text
// below, Markdown emphasis removed, each list item (sub-bullet or numbered
// step) and each paragraph on a line of its own.
func extractRules(spec string) string {
	var b strings.Builder
	b.WriteString("# The rules of ../shared/docs/GC-RULES.md, one block per rule, for the\n")
	b.WriteString("# timeline's explain view. Generated: go test ./tui -run TestRulesText -rules-from=PATH\n")
	var id string
	var lines []string
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
			id, lines = m[1], []string{m[2]}
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
		case listItemRE.MatchString(line):
			marker := listItemRE.FindString(line)
			lines = append(lines, strings.TrimSpace(marker)+" "+strings.TrimSpace(line[len(marker):]))
		case indent == 2:
			lines = append(lines, trimmed) // a paragraph of the rule
		default:
			lines[len(lines)-1] += " " + trimmed
		}
	}
	flush()
	return b.String()
}
