package engine

import (
	"errors"
	"testing"

	"github.com/gobench/gobench/drivers"
)

// An operation's error names its status once, also when the driver's error
// is a drivers.StatusError that names it itself.
func TestOpErrorNamesTheStatusOnce(t *testing.T) {
	cause := errors.New("hdfs: permission denied")
	cases := []struct {
		e    *OpError
		want string
	}{
		{&OpError{Op: "UPDATE", Status: drivers.Forbidden, Err: &drivers.StatusError{Status: drivers.Forbidden, Err: cause}}, "UPDATE: FORBIDDEN: hdfs: permission denied"},
		{&OpError{Op: "READ", Status: drivers.Forbidden, Err: &drivers.StatusError{Status: drivers.Forbidden}}, "READ: FORBIDDEN"},
		{&OpError{Op: "READ", Status: drivers.Error, Err: cause}, "READ: ERROR: hdfs: permission denied"},
		{&OpError{Op: "INSERT", Status: drivers.ServiceUnavailable}, "INSERT: SERVICE_UNAVAILABLE"},
	}
	for _, c := range cases {
		if got := c.e.Error(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}
