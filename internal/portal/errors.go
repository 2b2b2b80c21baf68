package portal

import (
	"errors"
	"fmt"
)

// Code classifies an Error. The HTTP edge maps each code to one status;
// nothing else in the program needs to know about HTTP.
type Code string

// The error codes. Their HTTP statuses are fixed in httpapi.
const (
	CodeInvalid            Code = "invalid"             // the caller's input is wrong (400)
	CodeUnprocessable      Code = "unprocessable"       // well-formed but fails validation (422)
	CodeInvalidCredentials Code = "invalid_credentials" // an identity token failed verification (401)
	CodeUnauthenticated    Code = "unauthenticated"     // no valid portal session (511, SPEC §8)
	CodeForbidden          Code = "forbidden"           // authenticated but not allowed (403)
	CodeNotFound           Code = "not_found"           // the thing does not exist (for this tenant) (404)
	CodeConflict           Code = "conflict"            // concurrent change (409)
	CodeStale              Code = "stale"               // the caller's version of the thing is no longer the current one (412)
	CodeRateLimited        Code = "rate_limited"        // too many attempts (429)
	CodeUnavailable        Code = "unavailable"         // a dependency is down (503)
	CodeInternal           Code = "internal"            // a bug or an unexpected failure (500)
)

// FieldError names one invalid input field and says what is wrong with it in
// words a person understands.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Error is the domain error. Message is safe to show to the user; Err, when
// set, is the underlying cause and is only ever logged.
type Error struct {
	Code    Code
	Message string
	Fields  []FieldError
	// Current is, for CodeConflict, the state the caller's change collided
	// with (a record's current field values), so the caller can compare.
	Current map[string]any
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Unwrap returns the cause, so errors.Is and errors.As see through an Error.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error with a user-facing message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap builds an Error that keeps err as its (logged, never shown) cause.
func Wrap(code Code, err error, message string) *Error {
	return &Error{Code: code, Message: message, Err: err}
}

// Invalid builds a CodeInvalid error carrying field errors.
func Invalid(message string, fields ...FieldError) *Error {
	return &Error{Code: CodeInvalid, Message: message, Fields: fields}
}

// ErrorCode returns the code of the first Error in err's chain, or
// CodeInternal when there is none (an unclassified error is a bug).
func ErrorCode(err error) Code {
	var pe *Error
	if errors.As(err, &pe) {
		return pe.Code
	}
	return CodeInternal
}

// IsNotFound reports whether err is (or wraps) a not-found Error.
func IsNotFound(err error) bool { return ErrorCode(err) == CodeNotFound }
