package drivers

import (
	"context"
	"errors"
	"fmt"
)

// Status is a YCSB return code. The zero value is OK. Only OK and BatchedOK
// count as success.
type Status uint8

// The return codes, in the order of Java YCSB's Status constants.
const (
	OK Status = iota
	Error
	NotFound
	NotImplemented
	UnexpectedState
	BadRequest
	Forbidden
	ServiceUnavailable
	BatchedOK
	numStatus
)

// NumStatus is the number of distinct return codes; Status values are
// 0..NumStatus-1, so they can index arrays.
const NumStatus = int(numStatus)

var statusNames = [...]string{
	OK: "OK", Error: "ERROR", NotFound: "NOT_FOUND", NotImplemented: "NOT_IMPLEMENTED",
	UnexpectedState: "UNEXPECTED_STATE", BadRequest: "BAD_REQUEST", Forbidden: "FORBIDDEN",
	ServiceUnavailable: "SERVICE_UNAVAILABLE", BatchedOK: "BATCHED_OK",
}

// String returns YCSB's spelling (OK, NOT_FOUND, ...).
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// IsOK reports whether s counts as a success (OK or BATCHED_OK).
func (s Status) IsOK() bool { return s == OK || s == BatchedOK }

// StatusNames returns the names of all codes indexed by Status.
func StatusNames() []string { return append([]string(nil), statusNames[:]...) }

// Sentinel errors a driver wraps to choose a return code.
var (
	// ErrNotFound: the record does not exist (NOT_FOUND).
	ErrNotFound = errors.New("not found")
	// ErrBatched: the write was buffered, not yet sent (BATCHED_OK).
	ErrBatched = errors.New("batched")
	// ErrUnavailable: the server is down or unreachable (SERVICE_UNAVAILABLE).
	ErrUnavailable = errors.New("service unavailable")
)

// StatusError lets a driver attach an explicit return code to an error.
type StatusError struct {
	Status Status
	Err    error
}

func (e *StatusError) Error() string {
	if e.Err == nil {
		return e.Status.String()
	}
	return e.Status.String() + ": " + e.Err.Error()
}

func (e *StatusError) Unwrap() error { return e.Err }

// Classify maps an operation's error to its return code: nil → OK,
// ErrBatched → BATCHED_OK, ErrNotFound → NOT_FOUND, errors.ErrUnsupported →
// NOT_IMPLEMENTED, ErrUnavailable → SERVICE_UNAVAILABLE, a *StatusError →
// its code, everything else (including a deadline) → ERROR.
func Classify(err error) Status {
	if err == nil {
		return OK
	}
	// errors.AsType, unlike errors.As with a pointer, does not allocate:
	// Classify runs on every failed operation.
	if se, ok := errors.AsType[*StatusError](err); ok {
		return se.Status
	}
	switch {
	case errors.Is(err, ErrBatched):
		return BatchedOK
	case errors.Is(err, ErrNotFound):
		return NotFound
	case errors.Is(err, errors.ErrUnsupported):
		return NotImplemented
	case errors.Is(err, ErrUnavailable):
		return ServiceUnavailable
	case errors.Is(err, context.Canceled):
		return Error
	}
	return Error
}
