// Package scriptout reads what a script of gcplay export kubectl prints
// at its expect steps: each expectation of gcplay, and beside it what the
// cluster has, in the same words.
//
// An expectation the script checks is two lines, gcplay's expectation
// ("  line 39    gcplay:  Secret/app-cache: absent") then the cluster's
// ("       same  cluster: Secret/app-cache: absent"), marked "same" or
// "DIFFERENT"; one it cannot check is one line ending in
// "(not checked here: WHY)". The last line says how many were the same
// ("done: N of M expectations the same on this cluster; ...").
package scriptout

import (
	"regexp"
	"strconv"
	"strings"
)

// Line is one expectation as the script printed it.
type Line struct {
	// Line is the line of the expectation in the scenario file.
	Line int
	// Subject is the object (or "count ...", or the step) it is about.
	Subject string
	// Expected is gcplay's side, Real the cluster's.
	Expected string
	Real     string
	// Mark is the script's own verdict: "same" or "DIFFERENT".
	Mark string
	// Checked is false for an expectation the script only states; Why
	// says why it cannot check it.
	Checked bool
	Why     string
}

// Output is what Parse found.
type Output struct {
	Lines []Line
	// Summary is the script's last line, without "done: ".
	Summary string
	// Unpaired are expectation lines without the cluster's line after
	// them, and cluster lines without an expectation before them: a
	// script that printed them is broken.
	Unpaired []string
}

var (
	gcplayRE  = regexp.MustCompile(`^  line (\d+) +gcplay:  (.*)$`)
	clusterRE = regexp.MustCompile(`^ *(same|DIFFERENT)  cluster: (.*)$`)
	notRE     = regexp.MustCompile(`^(.*) \(not checked here: (.*)\)$`)
)

// Parse reads a script's standard output.
func Parse(out string) Output {
	var o Output
	var pending *Line
	flush := func() {
		if pending != nil {
			o.Unpaired = append(o.Unpaired, "  line "+strconv.Itoa(pending.Line)+" gcplay:  "+pending.Subject+": "+pending.Expected)
			pending = nil
		}
	}
	for _, text := range strings.Split(out, "\n") {
		if m := gcplayRE.FindStringSubmatch(text); m != nil {
			flush()
			n, _ := strconv.Atoi(m[1])
			if nm := notRE.FindStringSubmatch(m[2]); nm != nil {
				subj, exp := split(nm[1])
				o.Lines = append(o.Lines, Line{Line: n, Subject: subj, Expected: exp, Why: nm[2]})
				continue
			}
			subj, exp := split(m[2])
			pending = &Line{Line: n, Subject: subj, Expected: exp, Checked: true}
			continue
		}
		if m := clusterRE.FindStringSubmatch(text); m != nil {
			if pending == nil {
				o.Unpaired = append(o.Unpaired, text)
				continue
			}
			l := *pending
			pending = nil
			l.Mark = m[1]
			l.Real = strings.TrimPrefix(m[2], l.Subject+": ")
			if l.Real == m[2] {
				o.Unpaired = append(o.Unpaired, text)
				continue
			}
			o.Lines = append(o.Lines, l)
			continue
		}
		flush()
		if s, ok := strings.CutPrefix(text, "done: "); ok {
			o.Summary = s
		}
	}
	flush()
	return o
}

// split cuts "SUBJECT: WHAT" at its first ": ".
func split(s string) (subject, what string) {
	subject, what, ok := strings.Cut(s, ": ")
	if !ok {
		return "", s
	}
	return subject, what
}

// Same reports whether a line's two sides agree: the same words, or a
// field gcplay expects to be 0 or false that the cluster does not have
// (gcplay counts a missing field equal to its zero value; the script
// writes a missing or empty one as "(none)").
func Same(expected, real string) bool {
	if expected == real {
		return true
	}
	path, v, ok := strings.Cut(expected, " = ")
	return ok && (v == "0" || v == "false") && real == path+" = (none)"
}
