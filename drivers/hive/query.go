package hive

import (
	"context"
	"fmt"
	"time"

	hs "github.com/beltran/gohive/hiveserver"
)

// query runs stmt: execute asynchronously, wait for the end, fetch the
// result set, close the operation (see [drivers.Querier]).
func (s *session) query(ctx context.Context, stmt string, fn func(cols, row []string) error) error {
	if s.broken.Load() {
		return errBroken
	}
	// A cancellation unblocks the call in flight at once; the session is
	// then broken (the stream is mid-message) and HiveServer2 cancels the
	// statement when the connection drops.
	stop := context.AfterFunc(ctx, func() { s.nc.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if err := s.deadline(ctx); err != nil {
		return s.ioErr(ctx, "execute", err)
	}
	resp, err := s.client.ExecuteStatement(ctx, &hs.TExecuteStatementReq{SessionHandle: s.handle, Statement: stmt, RunAsync: true})
	if err != nil {
		return s.ioErr(ctx, "execute", err)
	}
	if !statusOK(resp.GetStatus()) {
		return newStatementError(resp.GetStatus(), nil)
	}
	op := resp.OperationHandle
	if op == nil {
		return fmt.Errorf("hive: execute: no operation handle in the answer")
	}
	err = s.run(ctx, op, fn)
	if s.broken.Load() {
		return err
	}
	// Close the operation even when fn stopped early or the statement
	// failed, so the server frees it.
	if cerr := s.closeOp(ctx, op); err == nil {
		err = cerr
	}
	return err
}

// run waits for op to finish and passes its rows to fn.
func (s *session) run(ctx context.Context, op *hs.TOperationHandle, fn func(cols, row []string) error) error {
	if err := s.wait(ctx, op); err != nil {
		return err
	}
	if !op.HasResultSet {
		return nil
	}
	if err := s.deadline(ctx); err != nil {
		return s.ioErr(ctx, "result metadata", err)
	}
	meta, err := s.client.GetResultSetMetadata(ctx, &hs.TGetResultSetMetadataReq{OperationHandle: op})
	if err != nil {
		return s.ioErr(ctx, "result metadata", err)
	}
	if !statusOK(meta.GetStatus()) {
		return newStatementError(meta.GetStatus(), nil)
	}
	cols, types := columns(meta.GetSchema())
	for {
		if err := s.deadline(ctx); err != nil {
			return s.ioErr(ctx, "fetch", err)
		}
		fr, err := s.client.FetchResults(ctx, &hs.TFetchResultsReq{OperationHandle: op,
			Orientation: hs.TFetchOrientation_FETCH_NEXT, MaxRows: int64(s.cfg.FetchSize)})
		if err != nil {
			return s.ioErr(ctx, "fetch", err)
		}
		if !statusOK(fr.GetStatus()) {
			return newStatementError(fr.GetStatus(), nil)
		}
		n, err := s.emit(fr.GetResults(), cols, types, fn)
		if err != nil || n == 0 {
			return err
		}
		// HiveServer2 does not set hasMoreRows reliably; an empty batch
		// ends the result set.
	}
}

// wait polls op's status until it ends. HiveServer2 holds each status call
// until the statement finishes or a long-polling step passes, so no sleep
// is needed; a server that answers at once while the statement still runs
// gets a short growing pause between calls (never more than 50 ms).
func (s *session) wait(ctx context.Context, op *hs.TOperationHandle) error {
	pause := time.Duration(0)
	for {
		if err := s.deadline(ctx); err != nil {
			return s.ioErr(ctx, "status", err)
		}
		t0 := time.Now()
		st, err := s.client.GetOperationStatus(ctx, &hs.TGetOperationStatusReq{OperationHandle: op})
		if err != nil {
			return s.ioErr(ctx, "status", err)
		}
		if !statusOK(st.GetStatus()) {
			return newStatementError(st.GetStatus(), nil)
		}
		switch st.GetOperationState() {
		case hs.TOperationState_FINISHED_STATE:
			return nil
		case hs.TOperationState_INITIALIZED_STATE, hs.TOperationState_RUNNING_STATE, hs.TOperationState_PENDING_STATE:
		default:
			return newStatementError(nil, st)
		}
		if time.Since(t0) < 5*time.Millisecond {
			pause = min(max(2*pause, time.Millisecond), 50*time.Millisecond)
			time.Sleep(pause)
		} else {
			pause = 0
		}
	}
}

// closeOp closes an operation on the server.
func (s *session) closeOp(ctx context.Context, op *hs.TOperationHandle) error {
	ctx = context.WithoutCancel(ctx)
	if err := s.deadline(ctx); err != nil {
		return s.ioErr(ctx, "close operation", err)
	}
	resp, err := s.client.CloseOperation(ctx, &hs.TCloseOperationReq{OperationHandle: op})
	if err != nil {
		return s.ioErr(ctx, "close operation", err)
	}
	if !statusOK(resp.GetStatus()) {
		return newStatementError(resp.GetStatus(), nil)
	}
	return nil
}

// emit passes the rows of one fetched batch to fn and returns how many
// there were.
func (s *session) emit(rs *hs.TRowSet, cols []string, types []hs.TTypeId, fn func(cols, row []string) error) (int, error) {
	if rs == nil {
		return 0, nil
	}
	if len(rs.Columns) == 0 {
		if len(rs.Rows) > 0 {
			return 0, fmt.Errorf("hive: the server sent a row-based result set (protocol < V6); not supported")
		}
		return 0, nil
	}
	if len(rs.Columns) != len(cols) {
		return 0, fmt.Errorf("hive: the result has %d columns, its metadata %d", len(rs.Columns), len(cols))
	}
	n := columnLen(rs.Columns[0])
	if cap(s.row) < len(cols) {
		s.row = make([]string, len(cols))
	}
	row := s.row[:len(cols)]
	for i := 0; i < n; i++ {
		for c, col := range rs.Columns {
			row[c] = render(col, types[c], i)
		}
		if fn != nil {
			if err := fn(cols, row); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// columns returns the column names and primitive types of a result schema.
func columns(schema *hs.TTableSchema) ([]string, []hs.TTypeId) {
	if schema == nil {
		return nil, nil
	}
	names := make([]string, len(schema.Columns))
	types := make([]hs.TTypeId, len(schema.Columns))
	for i, c := range schema.Columns {
		names[i] = c.ColumnName
		types[i] = hs.TTypeId_STRING_TYPE
		if td := c.TypeDesc; td != nil && len(td.Types) > 0 && td.Types[0].PrimitiveEntry != nil {
			types[i] = td.Types[0].PrimitiveEntry.Type
		}
	}
	return names, types
}

func statusOK(st *hs.TStatus) bool {
	if st == nil {
		return false
	}
	c := st.GetStatusCode()
	return c == hs.TStatusCode_SUCCESS_STATUS || c == hs.TStatusCode_SUCCESS_WITH_INFO_STATUS
}
