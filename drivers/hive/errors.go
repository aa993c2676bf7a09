package hive

import (
	"fmt"
	"strings"

	hs "github.com/beltran/gohive/hiveserver"

	"github.com/gobench/gobench/drivers"
)

// StatementError is a statement (or session request) HiveServer2 refused
// or that failed while running, with Hive's message.
type StatementError struct {
	Message  string // Hive's message, e.g. "Error while compiling statement: FAILED: ParseException line 1:0 ..."
	SQLState string // e.g. "42000" (compile errors), "08S01" (execution errors)
	Code     int32  // Hive's ErrorMsg code (10000-19999: semantic errors, 20000-29999: runtime errors)
	State    string // the operation's final state when it failed while running (ERROR_STATE, CANCELED_STATE, ...)
}

func (e *StatementError) Error() string {
	var b strings.Builder
	b.WriteString("hive: ")
	b.WriteString(e.Message)
	var extra []string
	if e.SQLState != "" {
		extra = append(extra, "SQLState "+e.SQLState)
	}
	if e.Code != 0 {
		extra = append(extra, fmt.Sprintf("error code %d", e.Code))
	}
	if e.State != "" && e.State != "ERROR_STATE" {
		extra = append(extra, "state "+e.State)
	}
	if len(extra) > 0 {
		b.WriteString(" (" + strings.Join(extra, ", ") + ")")
	}
	return b.String()
}

// BadSQL reports whether the server refused to compile the statement (bad
// SQL, an unknown table or column: SQLState class 42).
func (e *StatementError) BadSQL() bool { return strings.HasPrefix(e.SQLState, "42") }

// Unwrap lets [drivers.Classify] see the return code: BAD_REQUEST for
// statements the server refused to compile, ERROR otherwise.
func (e *StatementError) Unwrap() error {
	if e.BadSQL() {
		return &drivers.StatusError{Status: drivers.BadRequest}
	}
	return &drivers.StatusError{Status: drivers.Error}
}

// newStatementError builds the error from a failed status or, for a
// statement that failed while running, from its operation status.
func newStatementError(st *hs.TStatus, op *hs.TGetOperationStatusResp) *StatementError {
	e := &StatementError{}
	if op != nil {
		e.Message = op.GetErrorMessage()
		e.SQLState = op.GetSqlState()
		e.Code = op.GetErrorCode()
		e.State = op.GetOperationState().String()
		if e.Message == "" {
			e.Message = "the statement ended in state " + e.State
		}
		return e
	}
	if st == nil {
		e.Message = "the server sent no status"
		return e
	}
	e.Message = strings.TrimSpace(st.GetErrorMessage())
	e.SQLState = st.GetSqlState()
	e.Code = st.GetErrorCode()
	if e.Message == "" {
		e.Message = "request failed with status " + st.GetStatusCode().String()
	}
	return e
}

// UnreachableError says that HiveServer2 could not be reached or stopped
// answering. It wraps [drivers.ErrUnavailable] (SERVICE_UNAVAILABLE).
type UnreachableError struct {
	Addr string
	What string // what was being done ("" = connecting)
	Err  error
	Hint string
}

func (e *UnreachableError) Error() string {
	msg := "hive: HiveServer2 at " + e.Addr + " is not reachable: " + e.Err.Error()
	if e.What != "" {
		msg = "hive: " + e.What + " at " + e.Addr + " failed: " + e.Err.Error()
	}
	if e.Hint != "" {
		msg += " (" + e.Hint + ")"
	}
	return msg
}

// Unwrap returns drivers.ErrUnavailable and the cause.
func (e *UnreachableError) Unwrap() []error { return []error{drivers.ErrUnavailable, e.Err} }
