package tui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gcplay/gcplay/engine"
	"github.com/gcplay/gcplay/fakeapi"
	"github.com/gcplay/gcplay/scenario"
)

// command is one command of the command bar: kubectl-like where kubectl
// has the verb, playground verbs (step, run, undo, save...) otherwise.
type command struct {
	name    string
	aliases []string
	usage   string
	example string
	flags   []flagDef
	// args names the positional arguments, for completion: kind, name,
	// ref, json, fop (add|remove), finalizer, kv, queue, count, format,
	// file, controller, target, duration, pos, scalable (a ref scale
	// takes), rolloutop (undo|history), rollable (a ref rollout takes).
	args     []string
	min, max int
	run      func(m *Model, in *invocation) (tea.Cmd, error)
}

type flagDef struct {
	name   string
	short  string
	value  bool
	values []string
}

// nsFlag is accepted by every command that names objects, as kubectl's -n.
var nsFlag = flagDef{name: "namespace", short: "n", value: true}

// invocation is a parsed command line.
type invocation struct {
	cmd   *command
	args  []string
	flags map[string][]string
}

func (in *invocation) flag(name string) (string, bool) {
	v, ok := in.flags[name]
	if !ok || len(v) == 0 {
		return "", ok
	}
	return v[len(v)-1], true
}

var commands []*command

func init() {
	commands = []*command{
		{name: "create", usage: "create KIND NAME [--replicas N] [--owner REF[@UID]]... [--block] [--controller] [--finalizer NAME]... [-l k=v,...] [--node NODE] [--schedule CRON] [-n NS]",
			example: "create pod p --owner cm/owner --block",
			flags: []flagDef{{name: "replicas", value: true}, {name: "owner", value: true}, {name: "block"}, {name: "controller"},
				{name: "finalizer", value: true}, {name: "labels", short: "l", value: true}, {name: "node", value: true}, {name: "image", value: true},
				{name: "schedule", value: true}, nsFlag},
			args: []string{"kind", "name"}, min: 2, max: 2, run: (*Model).cmdCreate},
		{name: "delete", aliases: []string{"del", "rm"}, usage: "delete REF [--cascade=foreground|background|orphan] [--grace-period=N] [--dry-run] [-n NS]",
			example: "delete rs/web-6d --cascade=foreground",
			flags: []flagDef{{name: "cascade", value: true, values: []string{"foreground", "background", "orphan"}},
				{name: "grace-period", value: true}, {name: "dry-run"}, nsFlag},
			args: []string{"ref"}, min: 1, max: 2, run: (*Model).cmdDelete},
		{name: "patch", usage: "patch REF '{json merge patch}' [-n NS]", example: `patch po/db-0 '{"metadata":{"finalizers":null}}'`,
			flags: []flagDef{{name: "type", value: true, values: []string{"merge"}}, {name: "patch", short: "p", value: true}, nsFlag},
			args:  []string{"ref", "json"}, min: 1, max: 3, run: (*Model).cmdPatch},
		{name: "finalizer", aliases: []string{"finalizers", "fin"}, usage: "finalizer add|remove REF NAME [-n NS]", example: "finalizer remove po/db-0 example.com/flush",
			flags: []flagDef{nsFlag}, args: []string{"fop", "ref", "finalizer"}, min: 3, max: 4, run: (*Model).cmdFinalizer},
		{name: "label", usage: "label REF k=v|k- ... [-n NS]", example: "label po/web-6d-a app=other",
			flags: []flagDef{nsFlag, {name: "overwrite"}}, args: []string{"ref", "kv"}, min: 2, max: 64, run: (*Model).cmdLabel},
		{name: "scale", usage: "scale REF --replicas=N [--current-replicas=N] [-n NS]  (a Deployment, ReplicaSet or StatefulSet: spec.replicas, as kubectl scale)",
			example: "scale deploy/web --replicas=3",
			flags:   []flagDef{{name: "replicas", value: true}, {name: "current-replicas", value: true}, nsFlag},
			args:    []string{"scalable"}, min: 1, max: 2, run: (*Model).cmdScale},
		{name: "rollout", usage: "rollout undo|history deploy|sts|ds/NAME [--to-revision=N] [-n NS]  (back to the previous revision, or N; history lists them, as kubectl rollout)",
			example: "rollout undo deploy/web --to-revision=1",
			flags:   []flagDef{{name: "to-revision", value: true}, nsFlag},
			args:    []string{"rolloutop", "rollable"}, min: 2, max: 3, run: (*Model).cmdRollout},
		{name: "step", aliases: []string{"s"}, usage: "step [QUEUE|N]  (one work item; from QUEUE, or N items in the default order)", example: "step attemptToDelete",
			args: []string{"queue"}, max: 1, run: (*Model).cmdStep},
		{name: "run", aliases: []string{"settle"}, usage: "run  (step until settled, or until a breakpoint or you stop it)", example: "run", run: (*Model).cmdRun},
		{name: "advance", usage: "advance [DURATION]  (move the clock, running what becomes due; default: to the next due work)", example: "advance 30s",
			args: []string{"duration"}, max: 1, run: (*Model).cmdAdvance},
		{name: "undo", usage: "undo  (back to before the last step that changed something)", example: "undo", run: (*Model).cmdUndo},
		{name: "back", usage: "back [N]  (N steps back along the timeline)", example: "back 3", args: []string{"count"}, max: 1, run: (*Model).cmdBack},
		{name: "forward", usage: "forward [N]  (N steps forward along the timeline)", example: "forward", args: []string{"count"}, max: 1, run: (*Model).cmdForward},
		{name: "goto", usage: "goto N  (to step N of the timeline; 0 is the start)", example: "goto 0", args: []string{"pos"}, min: 1, max: 1, run: (*Model).cmdGoto},
		{name: "reset", usage: "reset  (back to the world as loaded, with an empty timeline)", example: "reset", run: (*Model).cmdReset},
		{name: "save", usage: "save FILE  (write the world and timeline as a scenario file)", example: "save my-world.yaml", args: []string{"file"}, min: 1, max: 1, run: (*Model).cmdSave},
		{name: "load", usage: "load FILE  (open a scenario file)", example: "load my-world.yaml", args: []string{"file"}, min: 1, max: 1, run: (*Model).cmdLoad},
		{name: "export", usage: "export dot|mermaid|kubectl FILE  (the collector's graph, as kube-controller-manager's debug handler; kubectl: a script that builds this world on a real cluster)", example: "export dot graph.dot",
			args: []string{"format", "file"}, min: 2, max: 2, run: (*Model).cmdExport},
		{name: "restart", usage: "restart CONTROLLER  (throw away its memory: graph, queues, caches)", example: "restart garbagecollector",
			args: []string{"controller"}, min: 1, max: 1, run: (*Model).cmdRestart},
		{name: "break", usage: "break orphan|REF|list|clear  (stop autoplay and run when attemptToOrphan gets an item, or when REF changes)", example: "break orphan",
			flags: []flagDef{nsFlag}, args: []string{"target"}, min: 1, max: 2, run: (*Model).cmdBreak},
		{name: "help", aliases: []string{"h", "?"}, usage: "help  (every key and command)", example: "help", run: (*Model).cmdHelp},
		{name: "exit", usage: "exit pod/NAME | exit -l SELECTOR [--count N]  [--code N] [-n NS]  (the kubelet reports that the Pods' containers ended: 0 Succeeded, else Failed)",
			example: "exit -l job-name=pi --count 2",
			flags:   []flagDef{{name: "code", value: true}, {name: "labels", short: "l", value: true}, {name: "count", value: true}, nsFlag},
			args:    []string{"ref"}, max: 2, run: (*Model).cmdExit},
		{name: "quit", aliases: []string{"q"}, usage: "quit", example: "quit", run: func(*Model, *invocation) (tea.Cmd, error) { return tea.Quit, nil }},
	}
}

func findCommand(name string) *command {
	for _, c := range commands {
		if c.name == name || slices.Contains(c.aliases, name) {
			return c
		}
	}
	return nil
}

// execute runs a command line. A line that does not parse changes
// nothing and says what was wrong, with the nearest valid form.
func (m *Model) execute(line string) tea.Cmd {
	m.stop("")
	in, err := parseCommand(line)
	if err != nil {
		m.setMsg(msgErr, m.errWords(err))
		return nil
	}
	cmd, err := in.cmd.run(m, in)
	if err != nil {
		if te, ok := err.(*textError); ok && te.usage {
			m.setMsg(msgErr, m.tr.T("cmd-usage-error", "error", m.errWords(err), "usage", m.usageWords(in.cmd), "example", in.cmd.example))
		} else {
			m.setErr(err)
		}
	}
	return cmd
}

// parseCommand splits a line into a command, its flags and arguments.
func parseCommand(line string) (*invocation, error) {
	toks, err := tokenize(line)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return nil, errorf("empty command")
	}
	c := findCommand(toks[0])
	if c == nil {
		var names []string
		for _, c := range commands {
			names = append(names, c.name)
		}
		best := nearest(toks[0], names)
		if best == "" {
			return nil, errorf("unknown command %q; the commands are %s (help lists them with their usage)", toks[0], strings.Join(names, ", "))
		}
		bc := findCommand(best)
		fixed := best
		if len(toks) > 1 {
			fixed += " " + strings.Join(toks[1:], " ")
		}
		return nil, errorf("unknown command %q — did you mean: %s   (usage: %s)", toks[0], fixed, bc.usage)
	}
	in := &invocation{cmd: c, flags: map[string][]string{}}
	for i := 1; i < len(toks); i++ {
		t := toks[i]
		if !strings.HasPrefix(t, "-") || t == "-" || isNumber(t) {
			in.args = append(in.args, t)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(t, "-"), "=")
		var fd *flagDef
		for j := range c.flags {
			f := &c.flags[j]
			if f.name == name || (f.short != "" && f.short == name) {
				fd = f
			}
		}
		if fd == nil {
			var names []string
			for _, f := range c.flags {
				names = append(names, "--"+f.name)
			}
			if len(names) == 0 {
				return nil, errorf("%s takes no flags, and %s is not one — usage: %s", c.name, t, c.usage)
			}
			if best := nearest("--"+name, names); best != "" {
				return nil, errorf("unknown flag %s for %s — did you mean %s?   (usage: %s)", t, c.name, best, c.usage)
			}
			return nil, errorf("unknown flag %s for %s: it takes %s   (usage: %s)", t, c.name, strings.Join(names, ", "), c.usage)
		}
		switch {
		case fd.value && !hasVal:
			if i+1 >= len(toks) {
				return nil, errorf("flag %s needs a value — usage: %s", t, c.usage)
			}
			i++
			val = toks[i]
		case !fd.value && hasVal:
			return nil, errorf("flag --%s takes no value — usage: %s", fd.name, c.usage)
		}
		if len(fd.values) > 0 && !slices.Contains(fd.values, val) {
			hint := ""
			if best := nearest(val, fd.values); best != "" {
				hint = fmt.Sprintf(" — did you mean --%s=%s?", fd.name, best)
			}
			return nil, errorf("--%s must be %s, not %q%s", fd.name, strings.Join(fd.values, ", "), val, hint)
		}
		in.flags[fd.name] = append(in.flags[fd.name], val)
	}
	if len(in.args) < c.min || len(in.args) > c.max {
		what := "too many arguments"
		if len(in.args) < c.min {
			what = "missing arguments"
		}
		return nil, errorf("%s: %s — usage: %s — e.g. %s", c.name, what, c.usage, c.example)
	}
	return in, nil
}

func isNumber(s string) bool { _, err := strconv.Atoi(s); return err == nil }

// tokenize splits a line at spaces, keeping '...' and "..." together (the
// quotes are removed), as a shell would for these commands.
func tokenize(line string) ([]string, error) {
	var out []string
	var cur strings.Builder
	in := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, errorf("unclosed %c quote: close it, e.g. patch po/p '{\"metadata\":{\"labels\":{\"a\":\"b\"}}}'", quote)
	}
	if in {
		out = append(out, cur.String())
	}
	return out, nil
}

// nearest returns the candidate closest to s (edit distance at most a third
// of its length, at least 2), or "" when none is close.
func nearest(s string, cands []string) string {
	best, bestD := "", 1<<30
	for _, c := range cands {
		if strings.HasPrefix(c, s) && len(s) >= 2 {
			return c
		}
		if d := editDistance(strings.ToLower(s), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD <= max(2, len(s)/3) {
		return best
	}
	return ""
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// References to objects.

// takeRef reads an object reference from the front of args: KIND/NAME,
// KIND/NAMESPACE/NAME, uid:UID, or KIND NAME as two words, as kubectl
// accepts. It returns the reference and the rest of args.
func (m *Model) takeRef(args []string, in *invocation) (fakeapi.Ref, []string, error) {
	if len(args) == 0 {
		return fakeapi.Ref{}, nil, usagef("%s needs an object, such as rs/web-6d", in.cmd.name)
	}
	text, rest := args[0], args[1:]
	if !strings.Contains(text, "/") && !strings.HasPrefix(text, "uid:") {
		if len(rest) == 0 || strings.Contains(rest[0], "=") || strings.HasPrefix(rest[0], "{") {
			return fakeapi.Ref{}, nil, usagef("%q is not an object reference: write KIND/NAME, such as po/%s", text, text)
		}
		text, rest = text+"/"+rest[0], rest[1:]
	}
	ref, err := m.resolveRef(text, in)
	return ref, rest, err
}

func (m *Model) resolveRef(text string, in *invocation) (fakeapi.Ref, error) {
	store := m.s.world().Store()
	if uid, ok := strings.CutPrefix(text, "uid:"); ok {
		o := store.ByUID(uid)
		if o == nil {
			return fakeapi.Ref{}, errorf("no object in storage has uid %q", uid)
		}
		return fakeapi.RefOf(o), nil
	}
	r, err := scenario.ResolveRef(store.Registry(), text)
	if err != nil {
		return fakeapi.Ref{}, err
	}
	if ns, ok := in.flag("namespace"); ok && !r.NamespaceGiven && r.Namespace != "" {
		r.Namespace = ns
	}
	return r.Ref, nil
}

// shortRef names an object as the command bar takes it: kubectl's short
// name for the kind (rs/web-6d), with the namespace when not default.
func shortRef(reg *fakeapi.Registry, o *fakeapi.Object) string {
	kind := strings.ToLower(o.Kind)
	if info, ok := reg.Lookup(o.APIVersion, o.Kind); ok && len(info.ShortNames) > 0 {
		kind = info.ShortNames[0]
	}
	if ns := o.Metadata.Namespace; fakeapi.ShowNamespace(ns) {
		return kind + "/" + ns + "/" + o.Metadata.Name
	}
	return kind + "/" + o.Metadata.Name
}

// The commands.

func (m *Model) cmdCreate(in *invocation) (tea.Cmd, error) {
	store := m.s.world().Store()
	reg := store.Registry()
	info, err := reg.ByKind(in.args[0])
	if err != nil {
		var kinds []string
		for _, k := range reg.Kinds() {
			kinds = append(kinds, strings.ToLower(k.Kind))
		}
		if best := nearest(strings.ToLower(in.args[0]), append(kinds, reg.Names()...)); best != "" {
			return nil, errorf("%v — did you mean: create %s %s?", err, best, in.args[1])
		}
		return nil, err
	}
	name := in.args[1]
	ns := ""
	if info.Namespaced() {
		ns = "default"
		if v, ok := in.flag("namespace"); ok {
			ns = v
		}
	} else if _, ok := in.flag("namespace"); ok {
		return nil, errorf("%s is cluster-scoped: it takes no -n", info.Kind)
	}
	obj := &fakeapi.Object{APIVersion: info.APIVersion, Kind: info.Kind, Metadata: fakeapi.ObjectMeta{Name: name, Namespace: ns}}
	labels := map[string]string{}
	if v, ok := in.flag("labels"); ok {
		for _, kv := range strings.Split(v, ",") {
			k, val, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return nil, usagef("label %q is not k=v", kv)
			}
			labels[k] = val
		}
	}
	replicas := 1
	if v, ok := in.flag("replicas"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return nil, usagef("--replicas must be a number ≥ 0, not %q", v)
		}
		replicas = n
	}
	image := "nginx"
	if v, ok := in.flag("image"); ok {
		image = v
	}
	obj.Fields = fakeapi.FieldsOf(defaultFields(info.Kind, name, replicas, image, labels))
	if v, ok := in.flag("schedule"); ok {
		if info.Kind != "CronJob" {
			return nil, usagef("--schedule is for a CronJob")
		}
		obj.Fields.Get("spec").(map[string]any)["schedule"] = v
	}
	if v, ok := in.flag("node"); ok {
		if info.Kind != "Pod" {
			return nil, usagef("--node is for pods (it sets spec.nodeName)")
		}
		obj.Fields.Get("spec").(map[string]any)["nodeName"] = v
	}
	if len(labels) > 0 {
		obj.Metadata.Labels = labels
	}
	obj.Metadata.Finalizers = in.flags["finalizer"]
	// Owners are resolved by name, or given a UID on purpose with @UID (a
	// dangling reference).
	_, block := in.flags["block"]
	_, ctrl := in.flags["controller"]
	for i, o := range in.flags["owner"] {
		text, uid, explicit := strings.Cut(o, "@")
		oref, err := m.resolveRef(text, in)
		if err != nil {
			return nil, err
		}
		oinfo, _ := reg.Lookup(oref.APIVersion, oref.Kind)
		if oinfo.Namespaced() {
			oref.Namespace = ns // owners are looked up in the dependent's namespace (R58)
		}
		if !explicit {
			owner := store.Lookup(oref)
			if owner == nil {
				return nil, errorf("no %s to own %s: %s does not exist%s; to point at a missing owner on purpose, give a uid: --owner %s@some-uid",
					oref, name, oref, inNS(oref.Namespace), text)
			}
			uid = owner.Metadata.UID
		}
		r := fakeapi.OwnerReference{APIVersion: oref.APIVersion, Kind: oref.Kind, Name: oref.Name, UID: uid}
		if block {
			r.BlockOwnerDeletion = fakeapi.Bool(true)
		}
		if ctrl && i == 0 {
			r.Controller = fakeapi.Bool(true)
		}
		obj.Metadata.OwnerReferences = append(obj.Metadata.OwnerReferences, r)
	}
	r, err := m.s.act(engine.Create{Object: obj})
	if err != nil {
		return nil, err
	}
	if o := m.s.world().Store().Lookup(fakeapi.RefOf(obj)); o != nil {
		m.selectUID(o.Metadata.UID)
	}
	next := m.tr.T("next-after-create", "step", kn(m.keys.Step))
	m.reportAct(r, nil, next)
	return nil, nil
}

func inNS(ns string) string {
	if ns == "" {
		return ""
	}
	return fmt.Sprintf(" in namespace %q", ns)
}

// selectUID moves the selection to an object; refresh finds its row once
// the tree has it.
func (m *Model) selectUID(uid string) {
	if uid != "" {
		m.selUID = uid
		m.sel = -1 // not a row: refresh looks the UID up
	}
}

// defaultFields gives a new object of a built-in kind the fields a real
// one needs: workload kinds a selector and a pod template, pods a
// container.
func defaultFields(kind, name string, replicas int, image string, labels map[string]string) map[string]any {
	podLabels := map[string]any{"app": name}
	for k, v := range labels {
		podLabels[k] = v
	}
	container := []any{map[string]any{"name": "main", "image": image}}
	template := map[string]any{"metadata": map[string]any{"labels": podLabels}, "spec": map[string]any{"containers": container}}
	selector := map[string]any{"matchLabels": map[string]any{"app": name}}
	switch kind {
	case "Deployment", "ReplicaSet":
		return map[string]any{"spec": map[string]any{"replicas": float64(replicas), "selector": selector, "template": template}}
	case "StatefulSet":
		return map[string]any{"spec": map[string]any{"replicas": float64(replicas), "serviceName": name, "selector": selector, "template": template}}
	case "DaemonSet":
		return map[string]any{"spec": map[string]any{"selector": selector, "template": template}}
	case "Job":
		tpl := map[string]any{"spec": map[string]any{"containers": container, "restartPolicy": "Never"}}
		return map[string]any{"spec": map[string]any{"template": tpl}}
	case "CronJob":
		tpl := map[string]any{"spec": map[string]any{"containers": container, "restartPolicy": "Never"}}
		return map[string]any{"spec": map[string]any{"schedule": "* * * * *", "jobTemplate": map[string]any{"spec": map[string]any{"template": tpl}}}}
	case "Pod":
		return map[string]any{"spec": map[string]any{"containers": container}}
	case "ConfigMap", "Secret":
		return map[string]any{"data": map[string]any{}}
	}
	return map[string]any{}
}

func (m *Model) cmdDelete(in *invocation) (tea.Cmd, error) {
	ref, rest, err := m.takeRef(in.args, in)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, usagef("delete takes one object, not %q too", strings.Join(rest, " "))
	}
	opts := &fakeapi.DeleteOptions{}
	if v, ok := in.flag("cascade"); ok {
		p := map[string]fakeapi.DeletionPropagation{"foreground": fakeapi.DeletePropagationForeground,
			"background": fakeapi.DeletePropagationBackground, "orphan": fakeapi.DeletePropagationOrphan}[v]
		opts.PropagationPolicy = &p
	}
	if v, ok := in.flag("grace-period"); ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, usagef("--grace-period must be a number of seconds, not %q", v)
		}
		opts.GracePeriodSeconds = &n
	}
	if _, ok := in.flags["dry-run"]; ok {
		opts.DryRun = []string{"All"}
	}
	m.doDelete(ref, opts)
	return nil, nil
}

func (m *Model) cmdPatch(in *invocation) (tea.Cmd, error) {
	ref, rest, err := m.takeRef(in.args, in)
	if err != nil {
		return nil, err
	}
	body, hasP := in.flag("patch")
	switch {
	case hasP && len(rest) == 0:
	case !hasP && len(rest) == 1:
		body = rest[0]
	default:
		return nil, usagef("patch needs one JSON merge patch")
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		return nil, usagef("the patch is not a JSON object (%v); quote it: patch %s '{\"metadata\":{\"finalizers\":null}}'", err, in.args[0])
	}
	return nil, m.patch(ref, []byte(body))
}

func (m *Model) patch(ref fakeapi.Ref, body []byte) error {
	r, err := m.s.act(engine.Patch{Ref: ref, Merge: body})
	if err != nil {
		return err
	}
	m.reportAct(r, nil, "")
	return nil
}

func (m *Model) cmdFinalizer(in *invocation) (tea.Cmd, error) {
	op := in.args[0]
	if op != "add" && op != "remove" {
		hint := nearest(op, []string{"add", "remove"})
		if hint == "" {
			hint = "add or remove"
		}
		return nil, usagef("finalizer takes add or remove first, not %q (did you mean %s?)", op, hint)
	}
	ref, rest, err := m.takeRef(in.args[1:], in)
	if err != nil {
		return nil, err
	}
	if len(rest) != 1 {
		return nil, usagef("finalizer %s needs one finalizer name after the object", op)
	}
	name := rest[0]
	obj := m.s.world().Store().Lookup(ref)
	if obj == nil {
		return nil, errorf("%s not found: there is no such object in storage", ref)
	}
	fins := slices.Clone(obj.Metadata.Finalizers)
	has := slices.Contains(fins, name)
	switch {
	case op == "add" && has:
		return nil, errorf("%s already has the finalizer %s", ref, name)
	case op == "remove" && !has:
		return nil, errorf("%s has no finalizer %s (it has: %s)", ref, name, listOrNone(fins))
	case op == "add":
		fins = append(fins, name)
	default:
		fins = slices.DeleteFunc(fins, func(f string) bool { return f == name })
	}
	// A merge patch replaces the whole list; resourceVersion makes it
	// conditional, as kubectl edit would be (R10).
	patch := map[string]any{"metadata": map[string]any{"finalizers": fins, "resourceVersion": obj.Metadata.ResourceVersion}}
	if len(fins) == 0 {
		patch["metadata"].(map[string]any)["finalizers"] = nil
	}
	body, _ := json.Marshal(patch)
	return nil, m.patch(ref, body)
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func (m *Model) cmdLabel(in *invocation) (tea.Cmd, error) {
	ref, rest, err := m.takeRef(in.args, in)
	if err != nil {
		return nil, err
	}
	if len(rest) == 0 {
		return nil, usagef("label needs at least one k=v (or k- to remove)")
	}
	labels := map[string]any{}
	for _, kv := range rest {
		if k, ok := strings.CutSuffix(kv, "-"); ok && !strings.Contains(k, "=") {
			labels[k] = nil
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, usagef("%q is not k=v or k-", kv)
		}
		labels[k] = v
	}
	body, _ := json.Marshal(map[string]any{"metadata": map[string]any{"labels": labels}})
	return nil, m.patch(ref, body)
}

// queueByName resolves a queue name, its number in the collector pane, or
// an unambiguous part of its name ("orphan").
func (m *Model) queueByName(s string) (string, error) {
	names := m.s.world().QueueNames()
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(names) {
		return names[n-1], nil
	}
	var found []string
	for _, n := range names {
		if strings.EqualFold(n, s) {
			return n, nil
		}
		if strings.Contains(strings.ToLower(n), strings.ToLower(s)) {
			found = append(found, n)
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	return "", usagef("no queue %q: the queues are %s", s, numberedQueues(names))
}

func (m *Model) cmdStep(in *invocation) (tea.Cmd, error) {
	queue, count := "", 1
	if len(in.args) == 1 {
		if n, err := strconv.Atoi(in.args[0]); err == nil && n > len(m.s.world().QueueNames()) {
			count = n
		} else {
			q, err := m.queueByName(in.args[0])
			if err != nil {
				return nil, err
			}
			queue = q
		}
	}
	for i := 0; i < count; i++ {
		r, err := m.s.step(queue)
		if err != nil && len(r.recs) == 0 {
			if i > 0 {
				m.refresh()
				return nil, fmt.Errorf("after %d %s: %w", i, plural(i, "step", "steps"), err)
			}
			return nil, err
		}
		m.reportRecords(r, err)
		if err != nil || r.hit != "" {
			break
		}
	}
	return nil, nil
}

// cmdExit is the kubelet's report made by hand, as the scenario format's
// exit step: one Pod, or --count of the running Pods a selector matches.
func (m *Model) cmdExit(in *invocation) (tea.Cmd, error) {
	a := engine.Exit{}
	if v, ok := in.flag("code"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 255 {
			return nil, usagef("--code is an exit code from 0 to 255, not %q", v)
		}
		a.Code = n
	}
	sel, hasSel := in.flag("labels")
	switch {
	case hasSel && len(in.args) > 0:
		return nil, usagef("exit takes a Pod or -l SELECTOR, not both")
	case hasSel:
		parsed, err := scenario.ParseSelector(sel)
		if err != nil {
			return nil, usagef("%v", err)
		}
		a.Selector = &parsed
		a.Namespace = "default"
		if ns, ok := in.flag("namespace"); ok {
			a.Namespace = ns
		}
		if v, ok := in.flag("count"); ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return nil, usagef("--count is a number of Pods, at least 1, not %q", v)
			}
			a.Count = n
		}
	default:
		if _, ok := in.flag("count"); ok {
			return nil, usagef("--count goes with -l SELECTOR")
		}
		if len(in.args) == 0 {
			return nil, usagef("exit needs a Pod or -l SELECTOR (quit, or q, leaves gcplay)")
		}
		ref, rest, err := m.takeRef(in.args, in)
		if err != nil {
			return nil, err
		}
		if len(rest) > 0 {
			return nil, usagef("exit takes one Pod, not %q too", strings.Join(rest, " "))
		}
		if ref.Kind != "Pod" {
			return nil, usagef("exit ends the containers of a Pod, not of a %s", ref.Kind)
		}
		a.Pod = &ref
	}
	r, err := m.s.act(a)
	if err != nil {
		return nil, err
	}
	m.reportAct(r, nil, "")
	return nil, nil
}

func (m *Model) cmdRun(*invocation) (tea.Cmd, error) { return m.startRun(), nil }

func (m *Model) cmdAdvance(in *invocation) (tea.Cmd, error) {
	d := time.Duration(-1)
	if len(in.args) == 1 {
		v, err := time.ParseDuration(in.args[0])
		if err != nil || v < 0 {
			return nil, usagef("%q is not a duration such as 30s or 2m", in.args[0])
		}
		d = v
	}
	m.doAdvance(d)
	return nil, nil
}

func (m *Model) cmdUndo(*invocation) (tea.Cmd, error) { m.doUndo(); return nil, nil }

func countArg(in *invocation) (int, error) {
	if len(in.args) == 0 {
		return 1, nil
	}
	n, err := strconv.Atoi(in.args[0])
	if err != nil || n < 0 {
		return 0, usagef("%q is not a number of steps", in.args[0])
	}
	return n, nil
}

func (m *Model) cmdBack(in *invocation) (tea.Cmd, error) {
	n, err := countArg(in)
	if err != nil {
		return nil, err
	}
	m.timelineTo(max(m.s.h.Pos()-n, 0))
	return nil, nil
}

func (m *Model) cmdForward(in *invocation) (tea.Cmd, error) {
	n, err := countArg(in)
	if err != nil {
		return nil, err
	}
	m.timelineTo(min(m.s.h.Pos()+n, m.s.h.Len()))
	return nil, nil
}

func (m *Model) cmdGoto(in *invocation) (tea.Cmd, error) {
	n, err := strconv.Atoi(in.args[0])
	if err != nil || n < 0 || n > m.s.h.Len() {
		return nil, usagef("the timeline has steps 0 to %d, not %q", m.s.h.Len(), in.args[0])
	}
	m.timelineTo(n)
	return nil, nil
}

func (m *Model) cmdReset(*invocation) (tea.Cmd, error) {
	n := m.s.h.Len()
	m.s.reset()
	m.refresh()
	m.sayMsg(msgInfo, "reset to the start of %s; the timeline (%d steps) was cleared", m.s.origin.Name, n)
	return nil, nil
}

func (m *Model) cmdSave(in *invocation) (tea.Cmd, error) {
	file := in.args[0]
	data, err := scenario.Save(m.s.world(), scenarioName(file))
	if err != nil {
		return nil, err
	}
	if err := m.files.WriteFile(file, data); err != nil {
		return nil, err
	}
	m.sayMsg(msgOK, "saved the world at step %d to %s as a scenario: its objects, and deletes that make the terminating ones terminate again (gcplay run %s; load %s; export kubectl FILE.sh builds it on a real cluster)",
		m.s.h.Pos(), file, file, file)
	return nil, nil
}

// scenarioName makes a scenario name ([a-z0-9-]+) from a file name.
func scenarioName(file string) string {
	base := file[strings.LastIndexAny(file, "/\\")+1:]
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	var b strings.Builder
	for _, r := range strings.ToLower(base) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	name := strings.Trim(b.String(), "-")
	if name == "" {
		return "saved"
	}
	return name
}

func (m *Model) cmdLoad(in *invocation) (tea.Cmd, error) {
	data, err := m.files.ReadFile(in.args[0])
	if err != nil {
		return nil, errorf("%v (nothing changed)", err)
	}
	s, note, warn, err := openSession(in.args[0], data, nil, !m.opts.StepThrough)
	if err != nil {
		return nil, errorf("cannot load %s, nothing changed: %v", in.args[0], err)
	}
	s.breakOrphan = m.s.breakOrphan
	m.stop("")
	m.s, m.snap = s, nil
	m.selUID, m.sel, m.worldTop = "", 0, 0
	m.refresh()
	kind := msgOK
	if warn {
		kind = msgWarn
	}
	m.setMsg(kind, fmt.Sprintf("loaded %s (scenario %s): %s", in.args[0], s.origin.Name, note))
	return nil, nil
}

func (m *Model) cmdExport(in *invocation) (tea.Cmd, error) {
	w := m.s.world()
	var data string
	switch in.args[0] {
	case "dot":
		data = w.DOT()
	case "mermaid":
		data = w.Mermaid()
	case "kubectl":
		// The world as it is now, as save writes it, built on a real
		// cluster by a script.
		saved, err := scenario.Save(w, scenarioName(in.args[1]))
		if err != nil {
			return nil, err
		}
		sc, err := scenario.Parse(in.args[1], saved)
		if err != nil {
			return nil, err
		}
		script, err := scenario.ExportKubectl(sc)
		if err != nil {
			return nil, err
		}
		if err := m.files.WriteFile(in.args[1], script); err != nil {
			return nil, err
		}
		m.sayMsg(msgOK, "wrote %s: a bash script that builds this world on a real cluster (a kind cluster it creates, or --context NAME --force) with kubectl and prints what to compare", in.args[1])
		return nil, nil
	default:
		return nil, usagef("export writes dot, mermaid or kubectl, not %q", in.args[0])
	}
	if err := m.files.WriteFile(in.args[1], []byte(data)); err != nil {
		return nil, err
	}
	m.sayMsg(msgOK, "wrote the collector's graph as %s to %s (%d lines)", in.args[0], in.args[1], strings.Count(data, "\n"))
	return nil, nil
}

func (m *Model) cmdRestart(in *invocation) (tea.Cmd, error) {
	name := in.args[0]
	if !slices.Contains(m.s.world().Controllers(), name) {
		return nil, usagef("%q is not running; the controllers are %s", name, strings.Join(m.s.world().Controllers(), ", "))
	}
	r, err := m.s.act(engine.Restart{Controller: name})
	if err != nil {
		return nil, err
	}
	m.reportAct(r, nil, "")
	return nil, nil
}

func (m *Model) cmdBreak(in *invocation) (tea.Cmd, error) {
	switch in.args[0] {
	case "orphan", "attemptToOrphan":
		m.s.breakOrphan = true
		m.sayMsg(msgInfo, "breakpoint set: autoplay and run stop when attemptToOrphan gets an item")
	case "clear":
		m.s.breakOrphan = false
		m.s.watch = map[string]string{}
		m.sayMsg(msgInfo, "every breakpoint cleared")
	case "list":
		var parts []string
		if m.s.breakOrphan {
			parts = append(parts, "attemptToOrphan gets an item")
		}
		for _, uid := range sortedKeys(m.s.watch) {
			parts = append(parts, m.s.watch[uid]+" changes")
		}
		m.sayMsg(msgInfo, "breakpoints: %s", listOrNone(parts))
	default:
		ref, _, err := m.takeRef(in.args, in)
		if err != nil {
			return nil, err
		}
		o := m.s.world().Store().Lookup(ref)
		if o == nil {
			return nil, errorf("%s not found: only objects in storage can be watched", ref)
		}
		m.s.watch[o.Metadata.UID] = o.String()
		m.sayMsg(msgInfo, "breakpoint set: autoplay and run stop when %s changes", o)
	}
	return nil, nil
}

func (m *Model) cmdHelp(*invocation) (tea.Cmd, error) {
	m.mode, m.overlayTop = modeHelp, 0
	return nil, nil
}
