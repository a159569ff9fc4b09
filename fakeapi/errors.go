package fakeapi

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Reason is a Kubernetes StatusReason.
type Reason string

// The reasons the fake apiserver returns, with their HTTP codes in Code.
const (
	ReasonNotFound             Reason = "NotFound"
	ReasonAlreadyExists        Reason = "AlreadyExists"
	ReasonConflict             Reason = "Conflict"
	ReasonInvalid              Reason = "Invalid"
	ReasonForbidden            Reason = "Forbidden"
	ReasonBadRequest           Reason = "BadRequest"
	ReasonUnsupportedMediaType Reason = "UnsupportedMediaType"
	ReasonInternalError        Reason = "InternalError"
	ReasonServiceUnavailable   Reason = "ServiceUnavailable"
	ReasonTimeout              Reason = "Timeout"
	ReasonTooManyRequests      Reason = "TooManyRequests"
	ReasonMethodNotAllowed     Reason = "MethodNotAllowed"
	ReasonGone                 Reason = "Gone"
)

var reasonCodes = map[Reason]int{
	ReasonNotFound: 404, ReasonAlreadyExists: 409, ReasonConflict: 409, ReasonInvalid: 422,
	ReasonForbidden: 403, ReasonBadRequest: 400, ReasonUnsupportedMediaType: 415,
	ReasonInternalError: 500, ReasonServiceUnavailable: 503, ReasonTimeout: 504,
	ReasonTooManyRequests: 429, ReasonMethodNotAllowed: 405, ReasonGone: 410,
}

// KnownReason reports whether r is a reason a request (or an injected
// fault) can name. The empty reason is not one of them; see
// NewUnknownError.
func KnownReason(r Reason) bool { _, ok := reasonCodes[r]; return ok }

// StatusError is the one error type of the fake apiserver: a Kubernetes
// Status with a reason, an HTTP code and a message worded as kube-apiserver
// words it.
type StatusError struct {
	Reason  Reason
	Code    int
	Message string
}

func (e *StatusError) Error() string { return e.Message }

// NewError returns a StatusError with reason r and a formatted message.
func NewError(r Reason, format string, args ...any) *StatusError {
	code, ok := reasonCodes[r]
	if !ok {
		code = 500
	}
	return &StatusError{Reason: r, Code: code, Message: fmt.Sprintf(format, args...)}
}

// NewUnknownError is the Status kube-apiserver answers with when a
// request fails with a plain Go error rather than a Status (a storage
// error that storeerr.InterpretCreateError or InterpretUpdateError leaves
// as it is, a strategic merge patch error that the patch handler's
// interpretStrategicMergePatchError passes through):
// responsewriters.ErrorToAPIStatus gives it code 500, the empty reason
// (metav1.StatusReasonUnknown) and the error's text as its message.
// kubectl words it "Error from server: <message>", with no reason.
func NewUnknownError(format string, args ...any) *StatusError {
	return &StatusError{Code: 500, Message: fmt.Sprintf(format, args...)}
}

// IsStatus reports whether err is an answer of the apiserver (a
// StatusError), whatever its reason, the empty one included.
func IsStatus(err error) bool {
	var se *StatusError
	return errors.As(err, &se)
}

// FromServer words err as kubectl's StandardErrorMessage words an
// apiserver's answer: "Error from server (<reason>): <message>", or
// "Error from server: <message>" when the Status has no reason. ok is
// false when err is not a StatusError.
func FromServer(err error) (_ string, ok bool) {
	var se *StatusError
	if !errors.As(err, &se) {
		return "", false
	}
	if se.Reason == "" {
		return "Error from server: " + err.Error(), true
	}
	return "Error from server (" + string(se.Reason) + "): " + err.Error(), true
}

// NewNotFound words a 404 as the apiserver does: `pods "p" not found`.
// The message is the one fmt words with "%s %q not found", built in one
// allocation: a large delete's kubelet reads 100,000 Pods already gone.
func NewNotFound(resource, name string) *StatusError {
	var b strings.Builder
	b.Grow(len(resource) + len(name) + len(` "" not found`))
	b.WriteString(resource)
	b.WriteByte(' ')
	if plainQuotable(name) {
		// What %q writes for a name of printable ASCII without a quote
		// or a backslash (every valid object name): the name in quotes,
		// without strconv's rune by rune look at each character.
		b.WriteByte('"')
		b.WriteString(name)
		b.WriteByte('"')
	} else {
		var buf [64]byte
		b.Write(strconv.AppendQuote(buf[:0], name))
	}
	b.WriteString(" not found")
	return &StatusError{Reason: ReasonNotFound, Code: 404, Message: b.String()}
}

// plainQuotable reports whether s is made of printable ASCII other than
// '"' and '\\', which strconv.Quote writes unchanged.
func plainQuotable(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// ReasonOf returns the reason of err, or "" when err is not a StatusError.
func ReasonOf(err error) Reason {
	if err == nil {
		return ""
	}
	if se, ok := err.(*StatusError); ok {
		return se.Reason
	}
	var se *StatusError
	if errors.As(err, &se) {
		return se.Reason
	}
	return ""
}

// IsNotFound reports whether err is a 404.
func IsNotFound(err error) bool { return ReasonOf(err) == ReasonNotFound }

// IsAlreadyExists reports whether err is an AlreadyExists 409.
func IsAlreadyExists(err error) bool { return ReasonOf(err) == ReasonAlreadyExists }

// IsConflict reports whether err is a Conflict 409.
func IsConflict(err error) bool { return ReasonOf(err) == ReasonConflict }

// IsInvalid reports whether err is a 422.
func IsInvalid(err error) bool { return ReasonOf(err) == ReasonInvalid }

// IsForbidden reports whether err is a 403.
func IsForbidden(err error) bool { return ReasonOf(err) == ReasonForbidden }

// IsBadRequest reports whether err is a 400.
func IsBadRequest(err error) bool { return ReasonOf(err) == ReasonBadRequest }

// IsUnsupportedMediaType reports whether err is a 415 (a strategic merge
// patch sent to a custom resource).
func IsUnsupportedMediaType(err error) bool { return ReasonOf(err) == ReasonUnsupportedMediaType }
