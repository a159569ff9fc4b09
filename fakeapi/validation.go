package fakeapi

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// This file holds the validation the apiserver applies to metadata and
// DeleteOptions, with its exact wording: apimachinery's ValidateObjectMeta,
// ValidateObjectMetaUpdate, ValidateOwnerReferences, ValidateFinalizers,
// ValidateDeleteOptions and the name checks behind them (R2-R5).

// fieldError is one field-level validation error, written as
// "field: Type: value: detail" like apimachinery's field.Error.
type fieldError struct {
	field string
	typ   string // "Invalid value", "Required value", "Unsupported value", "Forbidden", "Duplicate value"
	// value is the bad value already formatted; showValue says whether the
	// error type shows it (Required and Forbidden do not).
	value     string
	showValue bool
	detail    string
}

func (e fieldError) String() string {
	s := e.field + ": " + e.typ
	if e.showValue {
		s += ": " + e.value
	}
	if e.detail != "" {
		s += ": " + e.detail
	}
	return s
}

func invalidField(field, value, detail string) fieldError {
	return fieldError{field: field, typ: "Invalid value", value: value, showValue: true, detail: detail}
}

func requiredField(field, detail string) fieldError {
	return fieldError{field: field, typ: "Required value", detail: detail}
}

func forbiddenField(field, detail string) fieldError {
	return fieldError{field: field, typ: "Forbidden", detail: detail}
}

func duplicateField(field, value string) fieldError {
	return fieldError{field: field, typ: "Duplicate value", value: value, showValue: true}
}

func notSupportedField(field, value string, supported []string) fieldError {
	q := make([]string, len(supported))
	for i, v := range supported {
		q[i] = strconv.Quote(v)
	}
	return fieldError{field: field, typ: "Unsupported value", value: value, showValue: true,
		detail: "supported values: " + strings.Join(q, ", ")}
}

// aggregate joins field errors as utilerrors.Aggregate does: duplicates
// dropped, one error alone, several in brackets.
func aggregate(errs []fieldError) string {
	var msgs []string
	for _, e := range errs {
		m := e.String()
		if !slices.Contains(msgs, m) {
			msgs = append(msgs, m)
		}
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// newInvalid words a 422 as errors.NewInvalid does:
// `ConfigMap "x" is invalid: metadata.finalizers: ...`.
func newInvalid(qualifiedKind, name string, errs []fieldError) *StatusError {
	return NewError(ReasonInvalid, "%s %q is invalid: %s", qualifiedKind, name, aggregate(errs))
}

// newConflict words a 409 Conflict as errors.NewConflict does.
func newConflict(qualifiedResource, name, detail string) *StatusError {
	return NewError(ReasonConflict, "Operation cannot be fulfilled on %s %q: %s", qualifiedResource, name, detail)
}

// newForbidden words a 403 as errors.NewForbidden does (without the name
// when there is none yet, as for a create with generateName).
func newForbidden(qualifiedResource, name, detail string) *StatusError {
	if name == "" {
		return NewError(ReasonForbidden, "%s is forbidden: %s", qualifiedResource, detail)
	}
	return NewError(ReasonForbidden, "%s %q is forbidden: %s", qualifiedResource, name, detail)
}

// errNoResource is the 404 of a request for an apiVersion or kind the
// server does not serve.
func errNoResource() *StatusError {
	return NewError(ReasonNotFound, "the server could not find the requested resource")
}

// optimisticLockMessage is the detail of a resourceVersion conflict on
// update or patch (R10).
const optimisticLockMessage = "the object has been modified; please apply your changes to the latest version and try again"

// goString formats a string as Go's %q does, the way field errors show
// values of type string.
func goString(s string) string { return strconv.Quote(s) }

// jsonValue formats a value as field errors show every value that is not
// a plain string, number or bool (lists, structs, pointers, named string
// types such as a UID or a propagation policy): as JSON, with
// encoding/json's escaping ("<" is \u003c). field.Error.ErrorBody does
// this since apimachinery v0.32; before, it printed Go syntax.
func jsonValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

// goStrings formats a string list as Go's %#v does: []string{"a", "b"}.
func goStrings(l []string) string {
	q := make([]string, len(l))
	for i, v := range l {
		q[i] = strconv.Quote(v)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

// Name checks. The patterns (quoted in errors) and messages are
// apimachinery's.
const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1035LabelFmt     = "[a-z]([-a-z0-9]*[a-z0-9])?"
	qualifiedNameFmt    = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"

	dns1123LabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1035LabelMsg     = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
	qualifiedNameMsg    = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
)

// The patterns above are matched by hand below (a test checks each
// against its regular expression): every create validates names, and
// compiling the four expressions was work at every start of the program
// and of the browser page.

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
func isAlnum(c byte) bool      { return isLowerAlnum(c) || c >= 'A' && c <= 'Z' }

// matchDNS1123Label matches dns1123LabelFmt.
func matchDNS1123Label(v string) bool {
	if v == "" || !isLowerAlnum(v[0]) || !isLowerAlnum(v[len(v)-1]) {
		return false
	}
	for i := 1; i < len(v)-1; i++ {
		if c := v[i]; !isLowerAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}

// matchDNS1123Subdomain matches dns1123SubdomainFmt: labels joined by dots.
func matchDNS1123Subdomain(v string) bool {
	for {
		i := strings.IndexByte(v, '.')
		if i < 0 {
			return matchDNS1123Label(v)
		}
		if !matchDNS1123Label(v[:i]) {
			return false
		}
		v = v[i+1:]
	}
}

// matchDNS1035Label matches dns1035LabelFmt.
func matchDNS1035Label(v string) bool {
	return v != "" && v[0] >= 'a' && v[0] <= 'z' && matchDNS1123Label(v)
}

// matchQualifiedName matches qualifiedNameFmt.
func matchQualifiedName(v string) bool {
	if v == "" || !isAlnum(v[0]) || !isAlnum(v[len(v)-1]) {
		return false
	}
	for i := 1; i < len(v)-1; i++ {
		if c := v[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

func maxLenError(n int) string { return fmt.Sprintf("must be no more than %d bytes", n) }

// regexError words a failed pattern check as apimachinery's RegexError.
func regexError(msg, re string, examples ...string) string {
	msg += " (e.g. "
	for i, e := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + e + "', "
	}
	return msg + "regex used for validation is '" + re + "')"
}

func isDNS1123Subdomain(v string) []string {
	var errs []string
	if len(v) > 253 {
		errs = append(errs, maxLenError(253))
	}
	if !matchDNS1123Subdomain(v) {
		errs = append(errs, regexError(dns1123SubdomainMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

func isDNS1123Label(v string) []string {
	var errs []string
	if len(v) > 63 {
		errs = append(errs, maxLenError(63))
	}
	if !matchDNS1123Label(v) {
		if matchDNS1123Subdomain(v) {
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, regexError(dns1123LabelMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

func isDNS1035Label(v string) []string {
	var errs []string
	if len(v) > 63 {
		errs = append(errs, maxLenError(63))
	}
	if !matchDNS1035Label(v) {
		errs = append(errs, regexError(dns1035LabelMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

// isPathSegmentName is the check of names that only have to fit in a URL
// path (RBAC objects).
func isPathSegmentName(v string, prefix bool) []string {
	if !prefix {
		for _, bad := range []string{".", ".."} {
			if v == bad {
				return []string{fmt.Sprintf("may not be '%s'", bad)}
			}
		}
	}
	var errs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(v, bad) {
			errs = append(errs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return errs
}

// isQualifiedName is apimachinery's IsQualifiedName (a label key): an
// optional DNS subdomain prefix and '/', then a name of at most 63
// characters. Finalizer names must be qualified names (R2).
func isQualifiedName(v string) []string {
	var errs []string
	parts := strings.Split(v, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, m := range isDNS1123Subdomain(prefix) {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return []string{"a qualified name " + regexError(qualifiedNameMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > 63 {
		errs = append(errs, "name part "+maxLenError(63))
	}
	if !matchQualifiedName(name) {
		errs = append(errs, "name part "+regexError(qualifiedNameMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// maskTrailingDash lets a generateName end in '-', as apimachinery does
// before checking it as a name.
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}

// nameErrors checks an object name (or, with prefix, a generateName) the
// way the kind's registry strategy does: Namespaces are DNS-1123 labels,
// Services DNS-1035 labels, RBAC objects path segments, everything else
// DNS-1123 subdomains.
func nameErrors(info KindInfo, name string, prefix bool) []string {
	switch {
	case info.Group() == "rbac.authorization.k8s.io":
		return isPathSegmentName(name, prefix)
	case info.Group() == "" && info.Kind == "Namespace":
		if prefix {
			name = maskTrailingDash(name)
		}
		return isDNS1123Label(name)
	case info.Group() == "" && info.Kind == "Service":
		if prefix {
			name = maskTrailingDash(name)
		}
		return isDNS1035Label(name)
	default:
		if prefix {
			name = maskTrailingDash(name)
		}
		return isDNS1123Subdomain(name)
	}
}

// validateObjectMeta is ValidateObjectMeta on create (R2, R3): name or
// generateName, namespace, ownerReferences and finalizers.
func validateObjectMeta(info KindInfo, m *ObjectMeta) []fieldError {
	var errs []fieldError
	if m.GenerateName != "" {
		for _, msg := range nameErrors(info, m.GenerateName, true) {
			errs = append(errs, invalidField("metadata.generateName", goString(m.GenerateName), msg))
		}
	}
	if m.Name == "" {
		errs = append(errs, requiredField("metadata.name", "name or generateName is required"))
	} else {
		for _, msg := range nameErrors(info, m.Name, false) {
			errs = append(errs, invalidField("metadata.name", goString(m.Name), msg))
		}
	}
	if info.Namespaced() {
		if m.Namespace == "" {
			errs = append(errs, requiredField("metadata.namespace", ""))
		} else {
			for _, msg := range isDNS1123Label(m.Namespace) {
				errs = append(errs, invalidField("metadata.namespace", goString(m.Namespace), msg))
			}
		}
	} else if m.Namespace != "" {
		errs = append(errs, forbiddenField("metadata.namespace", "not allowed on this type"))
	}
	errs = append(errs, validateOwnerReferences(m.OwnerReferences)...)
	errs = append(errs, validateFinalizers(m.Finalizers)...)
	return errs
}

// validateObjectMetaUpdate is the update half (R4): the create checks on
// the new metadata, no new finalizers while deleting, and the immutable
// fields. Name and namespace cannot change here: they address the object.
func validateObjectMetaUpdate(newM, oldM *ObjectMeta) []fieldError {
	var errs []fieldError
	errs = append(errs, validateOwnerReferences(newM.OwnerReferences)...)
	errs = append(errs, validateFinalizers(newM.Finalizers)...)
	if oldM.DeletionTimestamp != nil {
		var extra []string
		for _, f := range newM.Finalizers {
			if !slices.Contains(oldM.Finalizers, f) && !slices.Contains(extra, f) {
				extra = append(extra, f)
			}
		}
		if len(extra) > 0 {
			slices.Sort(extra)
			errs = append(errs, forbiddenField("metadata.finalizers",
				"no new finalizers can be added if the object is being deleted, found new finalizers "+goStrings(extra)))
		}
	}
	if newM.UID != oldM.UID {
		errs = append(errs, invalidField("metadata.uid", jsonValue(newM.UID), "field is immutable"))
	}
	if !timeEqual(newM.DeletionTimestamp, oldM.DeletionTimestamp) {
		errs = append(errs, invalidField("metadata.deletionTimestamp", jsonValue(newM.DeletionTimestamp), "field is immutable"))
	}
	if !int64PtrEqual(newM.DeletionGracePeriodSeconds, oldM.DeletionGracePeriodSeconds) {
		errs = append(errs, invalidField("metadata.deletionGracePeriodSeconds", jsonValue(newM.DeletionGracePeriodSeconds), "field is immutable"))
	}
	return errs
}

func timeEqual(a, b *Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(b.Time)
}

func int64PtrEqual(a, b *int64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// validateOwnerReferences is ValidateOwnerReferences (R3). It does not
// check that owners exist, that their kinds are served, that namespaces
// match or that UIDs are unique.
func validateOwnerReferences(refs []OwnerReference) []fieldError {
	const path = "metadata.ownerReferences"
	var errs []fieldError
	firstController := -1 // the index of the first reference with controller set
	for i, r := range refs {
		group, version, ok := parseGroupVersion(r.APIVersion)
		if !ok || version == "" {
			errs = append(errs, invalidField(path+".apiVersion", goString(r.APIVersion), "version must not be empty"))
		}
		if r.Kind == "" {
			errs = append(errs, invalidField(path+".kind", goString(r.Kind), "must not be empty"))
		}
		if r.Name == "" {
			errs = append(errs, invalidField(path+".name", goString(r.Name), "must not be empty"))
		}
		if r.UID == "" {
			errs = append(errs, invalidField(path+".uid", jsonValue(r.UID), "must not be empty"))
		}
		if ok && group == "" && version == "v1" && r.Kind == "Event" {
			errs = append(errs, invalidField(path, jsonValue(r),
				fmt.Sprintf("%s/%s, Kind=%s is disallowed from being an owner", group, version, r.Kind)))
		}
		if r.IsController() {
			if first := firstController; first >= 0 {
				errs = append(errs, invalidField(path, jsonValue(refs),
					fmt.Sprintf("Only one reference can have Controller set to true. Found \"true\" in references for %s/%s and %s/%s",
						refs[first].Kind, refs[first].Name, r.Kind, r.Name)))
			} else {
				firstController = i
			}
		}
	}
	return errs
}

// parseGroupVersion splits an apiVersion as schema.ParseGroupVersion does;
// ok is false for more than one '/'.
func parseGroupVersion(apiVersion string) (group, version string, ok bool) {
	switch strings.Count(apiVersion, "/") {
	case 0:
		return "", apiVersion, true
	case 1:
		g, v, _ := strings.Cut(apiVersion, "/")
		return g, v, true
	default:
		return "", "", false
	}
}

// validateFinalizers is ValidateFinalizers (R2): every name must be a
// qualified name, and orphan and foregroundDeletion exclude each other.
// Upstream only warns about names without a domain prefix; gcplay accepts
// them silently.
func validateFinalizers(fs []string) []fieldError {
	var errs []fieldError
	orphan, foreground := false, false
	for _, f := range fs {
		for _, msg := range isQualifiedName(f) {
			errs = append(errs, invalidField("metadata.finalizers", goString(f), msg))
		}
		orphan = orphan || f == FinalizerOrphanDependents
		foreground = foreground || f == FinalizerDeleteDependents
	}
	if orphan && foreground {
		errs = append(errs, invalidField("metadata.finalizers", jsonValue(fs),
			fmt.Sprintf("finalizer %s and %s cannot be both set", FinalizerOrphanDependents, FinalizerDeleteDependents)))
	}
	return errs
}

// validateDeleteOptions is ValidateDeleteOptions (R5). Its values are a
// pointer to a policy and a list, which field errors show as JSON.
func validateDeleteOptions(o *DeleteOptions) []fieldError {
	var errs []fieldError
	if o.OrphanDependents != nil && o.PropagationPolicy != nil {
		errs = append(errs, invalidField("propagationPolicy", jsonValue(strings.Clone(string(*o.PropagationPolicy))),
			"orphanDependents and deletionPropagation cannot be both set"))
	}
	if p := o.PropagationPolicy; p != nil && *p != DeletePropagationForeground &&
		*p != DeletePropagationBackground && *p != DeletePropagationOrphan {
		errs = append(errs, notSupportedField("propagationPolicy", jsonValue(strings.Clone(string(*p))),
			[]string{"Foreground", "Background", "Orphan", "nil"}))
	}
	for _, d := range o.DryRun {
		if d != "All" {
			errs = append(errs, notSupportedField("dryRun", jsonValue(cloneStrings(o.DryRun)), []string{"All"}))
			break
		}
	}
	return errs
}

// cloneStrings copies a list and its strings. The options' values are
// shown from copies so that nothing in o escapes: the delete path would
// otherwise move every caller's DeleteOptions, and what they point to, to
// the heap (TestQuietDeleteAllocationsPerPod).
func cloneStrings(l []string) []string {
	out := make([]string, len(l))
	for i, v := range l {
		out[i] = strings.Clone(v)
	}
	return out
}

// errInvalidDeleteOptions is the 422 of bad DeleteOptions.
func errInvalidDeleteOptions(errs []fieldError) *StatusError {
	return newInvalid("DeleteOptions.meta.k8s.io", "", errs)
}
