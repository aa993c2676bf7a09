package drivers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want Status
	}{
		{"nil", nil, OK},
		{"not found", ErrNotFound, NotFound},
		{"wrapped not found", fmt.Errorf("read table %q: %w", "t", ErrNotFound), NotFound},
		{"batched", fmt.Errorf("insert: %w", ErrBatched), BatchedOK},
		{"unsupported", fmt.Errorf("scan: %w", errors.ErrUnsupported), NotImplemented},
		{"unavailable", fmt.Errorf("dial: %w", ErrUnavailable), ServiceUnavailable},
		{"status error", &StatusError{Status: Forbidden, Err: io.EOF}, Forbidden},
		{"wrapped status error", fmt.Errorf("op: %w", &StatusError{Status: BadRequest}), BadRequest},
		{"status error beats its cause", &StatusError{Status: UnexpectedState, Err: ErrNotFound}, UnexpectedState},
		{"cancelled", fmt.Errorf("read: %w", context.Canceled), Error},
		{"deadline", context.DeadlineExceeded, Error},
		{"anything else", io.ErrUnexpectedEOF, Error},
		{"joined keeps the first match", errors.Join(io.EOF, ErrNotFound), NotFound},
	}
	for _, c := range cases {
		if got := Classify(c.err); got != c.want {
			t.Errorf("%s: Classify(%v) = %v, want %v", c.name, c.err, got, c.want)
		}
	}
}

func TestStatusNames(t *testing.T) {
	want := []string{"OK", "ERROR", "NOT_FOUND", "NOT_IMPLEMENTED", "UNEXPECTED_STATE", "BAD_REQUEST",
		"FORBIDDEN", "SERVICE_UNAVAILABLE", "BATCHED_OK"}
	names := StatusNames()
	if len(names) != NumStatus || len(want) != NumStatus {
		t.Fatalf("StatusNames() has %d names, NumStatus = %d, want %d", len(names), NumStatus, len(want))
	}
	for i, w := range want {
		if names[i] != w || Status(i).String() != w {
			t.Errorf("Status(%d): name %q, String %q, want %q", i, names[i], Status(i), w)
		}
	}
	if got := Status(200).String(); got != "Status(200)" {
		t.Errorf("Status(200).String() = %q, want Status(200)", got)
	}
	names[0] = "changed"
	if StatusNames()[0] != "OK" {
		t.Error("StatusNames returned its internal array")
	}
}

func TestStatusIsOK(t *testing.T) {
	for s := range Status(NumStatus) {
		if want := s == OK || s == BatchedOK; s.IsOK() != want {
			t.Errorf("%v.IsOK() = %v, want %v", s, s.IsOK(), want)
		}
	}
}

func TestStatusErrorMessage(t *testing.T) {
	if got := (&StatusError{Status: Forbidden}).Error(); got != "FORBIDDEN" {
		t.Errorf("without cause: %q, want FORBIDDEN", got)
	}
	if got := (&StatusError{Status: Forbidden, Err: io.EOF}).Error(); got != "FORBIDDEN: EOF" {
		t.Errorf("with cause: %q, want \"FORBIDDEN: EOF\"", got)
	}
}

// TestClassifyAllocs: the runner classifies every operation's error.
func TestClassifyAllocs(t *testing.T) {
	errs := []error{nil, ErrNotFound, fmt.Errorf("x: %w", ErrNotFound), io.EOF}
	for _, err := range errs {
		if n := testing.AllocsPerRun(100, func() { _ = Classify(err) }); n != 0 {
			t.Errorf("Classify(%v): %v allocs, want 0", err, n)
		}
	}
}
