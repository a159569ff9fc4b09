package i18n

import (
	"strings"

	"github.com/gcplay/gcplay/internal/lazyre"
)

// engineForms are the engine's English forms of its short texts (what
// the next step will do, what a DELETE did) that a language may word in
// its own: a form's name, and the pattern whose groups fill {1}, {2}...
// of the message "engine.<name>". A text that matches no form, or whose
// form the language lacks, stays English. Compiled on first use: English
// never reads them, and a program's start (the page's above all) should
// not pay for them.
var engineForms = []engineForm{
	{"idle", lazyre.New(`^idle: every queue is empty$`)},
	{"idle-until", lazyre.New(`^idle until (\S+), when delayed work is due$`)},
	{"clock-waits", lazyre.New(`^idle: the clock waits until (\S+) \(a schedule, a backoff, a deadline or a TTL\); advance crosses it$`)},
	{"graph-changes", lazyre.New(`^graphChanges: process (add|update|delete) (\S+)$`)},
	{"attempt-to-delete", lazyre.New(`^attemptToDelete: decide the fate of (\S+)$`)},
	{"attempt-to-orphan", lazyre.New(`^attemptToOrphan: orphan the dependents of (\S+)$`)},
	{"sync", lazyre.New(`^(cronjob|deployment|replicaset|job|statefulset|daemonset): sync (\S+)$`)},
	{"namespace-sync", lazyre.New(`^namespace: sync (\S+) \(delete its content, then finalize it\)$`)},
	{"orphan-pod", lazyre.New(`^orphanPod: remove the tracking finalizer of (\S+)$`)},
	{"ttl-check", lazyre.New(`^ttlafterfinished: check whether (\S+) has expired$`)},
	{"kubelet-bind", lazyre.New(`^kubelet: bind Pod (\S+) to (\S+)$`)},
	{"kubelet-start", lazyre.New(`^kubelet: start the containers of Pod (\S+)$`)},
	{"kubelet-finish", lazyre.New(`^kubelet: finish terminating Pod (\S+)$`)},
	{"removed", lazyre.New(`^(\S+) removed from storage at once \(HTTP (\d+)\)$`)},
	{"now-terminating", lazyre.New(`^(\S+) is now terminating \(deletionTimestamp set, (.+); HTTP (\d+)\)$`)},
}

type engineForm struct {
	name string
	re   *lazyre.RE
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
		m := f.re.Get().FindStringSubmatch(s)
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
