package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gcplay/gcplay/fakeapi"
)

// completion is the state of tab completion: the candidates for the word
// being completed, and which one the last tab chose.
type completion struct {
	base  string // the line before the word being completed
	cands []string
	idx   int // -1 before cycling starts
}

// complete handles tab: one candidate is taken at once; several complete
// to their common prefix, then each further tab cycles through them.
func (m *Model) complete() {
	if len(m.compl.cands) > 1 && m.compl.idx >= -1 {
		m.compl.idx = (m.compl.idx + 1) % len(m.compl.cands)
		m.cmd.set(m.compl.base + m.compl.cands[m.compl.idx])
		return
	}
	line := string(m.cmd.buf)
	toks, err := tokenize(line)
	if err != nil {
		return
	}
	word := ""
	if len(toks) > 0 && !strings.HasSuffix(line, " ") {
		word = toks[len(toks)-1]
		toks = toks[:len(toks)-1]
	}
	base := line[:len(line)-len(word)]
	var cands []string
	for _, c := range m.candidates(toks, word) {
		if strings.HasPrefix(c, word) {
			cands = append(cands, c)
		}
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	switch len(cands) {
	case 0:
		m.compl = completion{idx: -2}
	case 1:
		end := " "
		if strings.HasSuffix(cands[0], "=") || strings.HasSuffix(cands[0], "/") {
			end = ""
		}
		m.cmd.set(base + cands[0] + end)
		m.compl = completion{}
	default:
		m.cmd.set(base + commonPrefix(cands))
		m.compl = completion{base: base, cands: cands, idx: -1}
	}
}

func commonPrefix(ss []string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// candidates lists what may come next after toks (the words before the one
// being completed).
func (m *Model) candidates(toks []string, word string) []string {
	if len(toks) == 0 {
		var out []string
		for _, c := range commands {
			out = append(out, c.name)
		}
		return out
	}
	c := findCommand(toks[0])
	if c == nil {
		return nil
	}
	// A flag's value?
	if prev := toks[len(toks)-1]; strings.HasPrefix(prev, "-") && !strings.Contains(prev, "=") {
		if fd := flagOf(c, prev); fd != nil && fd.value {
			if fd.name == "to-revision" {
				return m.revisionsIn(toks)
			}
			return m.flagValues(fd)
		}
	}
	if strings.HasPrefix(word, "-") {
		var out []string
		for _, f := range c.flags {
			if f.name == "to-revision" {
				for _, v := range m.revisionsIn(toks) {
					out = append(out, "--to-revision="+v)
				}
				continue
			}
			if len(f.values) > 0 {
				for _, v := range f.values {
					out = append(out, "--"+f.name+"="+v)
				}
				continue
			}
			out = append(out, "--"+f.name)
			if f.short != "" {
				out = append(out, "-"+f.short)
			}
		}
		return out
	}
	// The positional argument's kind.
	pos := 0
	for i := 1; i < len(toks); i++ {
		t := toks[i]
		if strings.HasPrefix(t, "-") && !isNumber(t) {
			if fd := flagOf(c, t); fd != nil && fd.value && !strings.Contains(t, "=") {
				i++
			}
			continue
		}
		pos++
	}
	if pos >= len(c.args) {
		return nil
	}
	switch c.args[pos] {
	case "kind":
		return m.kindNames()
	case "ref", "target":
		out := m.refNames()
		if c.args[pos] == "target" {
			out = append(out, "orphan", "clear", "list")
		}
		return out
	case "scalable":
		return m.refNamesOf(scalableKinds...)
	case "rollable":
		return m.refNamesOf(rollableKinds...)
	case "rolloutop":
		return rolloutOps
	case "fop":
		return []string{"add", "remove"}
	case "finalizer":
		if len(toks) >= 3 {
			if ref, err := m.resolveRef(toks[2], &invocation{flags: map[string][]string{}}); err == nil {
				if o := m.s.world().Store().Lookup(ref); o != nil && toks[1] == "remove" {
					return o.Metadata.Finalizers
				}
			}
		}
		return []string{"example.com/hold", "example.com/flush", fakeapi.FinalizerOrphanDependents, fakeapi.FinalizerDeleteDependents}
	case "queue":
		return m.s.world().QueueNames()
	case "format":
		return []string{"dot", "mermaid", "kubectl"}
	case "controller":
		return m.s.world().Controllers()
	case "json":
		return []string{`'{"metadata":{"finalizers":null}}'`}
	}
	return nil
}

func flagOf(c *command, tok string) *flagDef {
	name, _, _ := strings.Cut(strings.TrimLeft(tok, "-"), "=")
	for i := range c.flags {
		if c.flags[i].name == name || (c.flags[i].short != "" && c.flags[i].short == name) {
			return &c.flags[i]
		}
	}
	return nil
}

func (m *Model) flagValues(fd *flagDef) []string {
	switch fd.name {
	case "owner":
		return m.refNames()
	case "namespace":
		var out []string
		for _, o := range m.s.world().Store().Objects() {
			if o.Kind == "Namespace" {
				out = append(out, o.Metadata.Name)
			}
		}
		return out
	case "finalizer":
		return []string{"example.com/hold", "example.com/flush"}
	case "replicas", "grace-period", "current-replicas":
		return []string{"0", "1", "3"}
	}
	return fd.values
}

// kindNames are the kinds as the command bar takes them: kubectl's short
// names and the lower-case kind names.
func (m *Model) kindNames() []string {
	var out []string
	for _, k := range m.snap.reg.Kinds() {
		out = append(out, strings.ToLower(k.Kind))
		out = append(out, k.ShortNames...)
	}
	return out
}

// refNames are the objects in view as references (rs/web-6d).
func (m *Model) refNames() []string {
	var out []string
	for _, r := range m.snap.tree.rows {
		if r.obj != nil {
			out = append(out, shortRef(m.snap.reg, r.obj))
		}
	}
	return out
}

// commandHint is the message area while typing: the completions of the
// last tab, or the usage of the command being typed.
func (m *Model) commandHint() string {
	if len(m.compl.cands) > 1 {
		shown := m.compl.cands
		more := ""
		if len(shown) > 30 {
			more = fmt.Sprintf(" … %d more", len(shown)-30)
			shown = shown[:30]
		}
		if more != "" {
			more = m.tr.T("cmd-more", "n", fmt.Sprint(len(m.compl.cands)-30))
		}
		return "tab: " + strings.Join(shown, "  ") + more
	}
	if m.compl.idx == -2 {
		return m.tr.T("cmd-no-completions")
	}
	toks, _ := tokenize(string(m.cmd.buf))
	if len(toks) > 0 {
		if c := findCommand(toks[0]); c != nil {
			return m.tr.T("cmd-usage", "usage", m.usageWords(c))
		}
	}
	return m.tr.T("cmd-commands", "names", "create delete patch finalizer label scale rollout step run advance undo back forward goto reset save load export restart break exit help quit")
}
