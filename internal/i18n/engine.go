package i18n

import (
	"regexp"
	"strings"
)

// engineForms are the engine's English forms of its short texts (what
// the next step will do, what a DELETE did) that a language may word in
// its own: a form's name, and the pattern whose groups fill {1}, {2}...
// of the message "engine.<name>". A text that matches no form, or whose
// form the language lacks, stays English.
var engineForms = []struct {
	name string
	re   *regexp.Regexp
}{
	{"idle", regexp.MustCompile(`^idle: every queue is empty$`)},
	{"idle-until", regexp.MustCompile(`^idle until (\S+), when delayed work is due$`)},
	{"clock-waits", regexp.MustCompile(`^idle: the clock waits until (\S+) \(a schedule, a backoff, a deadline or a TTL\); advance crosses it$`)},
	{"graph-changes", regexp.MustCompile(`^graphChanges: process (add|update|delete) (\S+)$`)},
	{"attempt-to-delete", regexp.MustCompile(`^attemptToDelete: decide the fate of (\S+)$`)},
	{"attempt-to-orphan", regexp.MustCompile(`^attemptToOrphan: orphan the dependents of (\S+)$`)},
	{"sync", regexp.MustCompile(`^(cronjob|deployment|replicaset|job|statefulset|daemonset): sync (\S+)$`)},
	{"namespace-sync", regexp.MustCompile(`^namespace: sync (\S+) \(delete its content, then finalize it\)$`)},
	{"orphan-pod", regexp.MustCompile(`^orphanPod: remove the tracking finalizer of (\S+)$`)},
	{"ttl-check", regexp.MustCompile(`^ttlafterfinished: check whether (\S+) has expired$`)},
	{"kubelet-bind", regexp.MustCompile(`^kubelet: bind Pod (\S+) to (\S+)$`)},
	{"kubelet-start", regexp.MustCompile(`^kubelet: start the containers of Pod (\S+)$`)},
	{"kubelet-finish", regexp.MustCompile(`^kubelet: finish terminating Pod (\S+)$`)},
	{"removed", regexp.MustCompile(`^(\S+) removed from storage at once \(HTTP (\d+)\)$`)},
	{"now-terminating", regexp.MustCompile(`^(\S+) is now terminating \(deletionTimestamp set, (.+); HTTP (\d+)\)$`)},
}

// EnginePrefix starts the key of a language's words for one of the
// engine's short English forms (see Engine).
const EnginePrefix = "engine."

// Engine words one of the engine's short texts in the catalog's
// language: s itself in English, or when the language has no words for
// its form.
func (c *Catalog) Engine(s string) string {
	if c == nil || c.lang == "en" || s == "" {
		return s
	}
	for _, f := range engineForms {
		m := f.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		w, ok := c.m[EnginePrefix+f.name]
		if !ok {
			return s
		}
		for i := len(m) - 1; i >= 1; i-- {
			w = strings.ReplaceAll(w, "{"+string(rune('0'+i))+"}", m[i])
		}
		return w
	}
	return s
}
