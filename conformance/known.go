package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// knownEntry is one documented disagreement: a check of a shipped
// scenario that real Kubernetes does not bear out, accepted because
// docs/CONFORMANCE.md (and, for a lesson, the lesson itself) names the
// simplification.
//
// The file has one entry a line: the scenario's file name (base name;
// "archive.txtar#member.yaml" for an archive member, and for a lesson's
// runs "NN-id.yaml#solution", "NN-id.yaml#wrong-ID" or
// "NN-id.yaml#prediction"), a colon and the
// line of the check, the check key, the subject when it has one, then
// " -- " and the reason. '#' starts a comment line.
//
//	two-owners.yaml:41 ownerReferences Secret/tls-cert -- why
//
// A reason that starts with "race:" marks a check whose outcome on the
// real cluster depends on timing: it may agree or not, and is never
// reported stale.
type knownEntry struct {
	File    string
	Line    int
	Key     string
	Subject string
	Reason  string
	used    bool
}

// racy reports whether the entry may agree on some runs.
func (e *knownEntry) racy() bool { return strings.HasPrefix(e.Reason, "race:") }

func loadKnown(path string) ([]*knownEntry, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*knownEntry
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		head, reason, ok := strings.Cut(line, " -- ")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want FILE:LINE KEY [SUBJECT] -- REASON", path, n)
		}
		fields := strings.Fields(head)
		if len(fields) < 2 || len(fields) > 3 {
			return nil, fmt.Errorf("%s:%d: want FILE:LINE KEY [SUBJECT] -- REASON", path, n)
		}
		e := &knownEntry{Key: fields[1], Reason: strings.TrimSpace(reason)}
		if len(fields) == 3 {
			e.Subject = fields[2]
		}
		file, lineNo, ok := strings.Cut(fields[0], ":")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want FILE:LINE", path, n)
		}
		if _, err := fmt.Sscanf(lineNo, "%d", &e.Line); err != nil {
			return nil, fmt.Errorf("%s:%d: bad line number %q", path, n, lineNo)
		}
		e.File = file
		out = append(out, e)
	}
	return out, sc.Err()
}

// knownName is how the known list names a file: its base name, with
// "#member" for an archive member.
func knownName(name string) string {
	file, member, ok := strings.Cut(name, "#")
	if ok {
		return filepath.Base(file) + "#" + member
	}
	return filepath.Base(name)
}

// match finds the entry for a disagreeing check of the job the known
// list calls kn.
func match(known []*knownEntry, kn string, c CheckResult) *knownEntry {
	for _, e := range known {
		if e.File == kn && e.Line == c.Line && e.Key == c.Key && (e.Subject == "" || e.Subject == c.Subject) {
			return e
		}
	}
	return nil
}
