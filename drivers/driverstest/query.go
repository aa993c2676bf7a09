package driverstest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/gobench/gobench/drivers"
)

// queryCheck is what [QueryOnly] declares.
type queryCheck struct {
	stmt string
	want [][]string
	bad  string
}

// testRecordsUnsupported checks a [QueryOnly] driver: every record
// operation is NOT_IMPLEMENTED.
func (h *harness) testRecordsUnsupported(t *testing.T) {
	e := h.setup(t)
	ctx, k, r := t.Context(), []byte("user1"), record("user1", 0)
	for name, err := range map[string]error{
		"Read":   e.conn.Read(ctx, e.table, k, nil, drivers.NewRecord(NumFields)),
		"Scan":   e.conn.Scan(ctx, e.table, k, 1, nil, func([]byte, *drivers.Record) error { return nil }),
		"Update": e.conn.Update(ctx, e.table, k, r),
		"Insert": e.conn.Insert(ctx, e.table, k, r),
		"Delete": e.conn.Delete(ctx, e.table, k),
	} {
		if s := drivers.Classify(err); s != drivers.NotImplemented {
			t.Errorf("%s: status %v (err %v), want NOT_IMPLEMENTED", name, s, err)
		}
	}
}

// testQuery runs the declared statement on several connections at once,
// then checks early stops and a bad statement.
func (h *harness) testQuery(t *testing.T) {
	e := h.setup(t)
	q := h.cfg.query
	conns := []drivers.Conn{e.conn}
	for len(conns) < h.cfg.workers {
		conns = append(conns, h.openConn(t, e.db))
	}
	var wg sync.WaitGroup
	errs := make([]error, len(conns))
	for i, c := range conns {
		wg.Go(func() { errs[i] = h.runQuery(t, c, q.stmt, q.want) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("conn %d: %v", i, err)
		}
	}
	qr, ok := e.conn.(drivers.Querier)
	if !ok {
		return
	}
	stop := errors.New("stop here")
	n := 0
	err := qr.Query(t.Context(), q.stmt, func(_, _ []string) error { n++; return stop })
	if len(q.want) > 0 && (!errors.Is(err, stop) || n != 1) {
		t.Errorf("Query(%q) with a callback failing at the first row: %d rows, err %v; want 1 row and the callback's error", q.stmt, n, err)
	}
	if q.bad != "" {
		err := qr.Query(t.Context(), q.bad, func(_, _ []string) error { return nil })
		if s := drivers.Classify(err); s != drivers.BadRequest {
			t.Errorf("Query(%q): status %v (err %v), want BAD_REQUEST", q.bad, s, err)
		}
	}
	if err := h.runQuery(t, e.conn, q.stmt, q.want); err != nil {
		t.Errorf("after the early stop and the bad statement: %v", err)
	}
}

// runQuery runs stmt on c and compares the rows with want.
func (h *harness) runQuery(t *testing.T, c drivers.Conn, stmt string, want [][]string) error {
	qr, ok := c.(drivers.Querier)
	if !ok {
		return fmt.Errorf("%T does not implement drivers.Querier", c)
	}
	var got [][]string
	err := qr.Query(t.Context(), stmt, func(_, row []string) error {
		got = append(got, slices.Clone(row))
		return nil
	})
	if err != nil {
		return fmt.Errorf("Query(%q): %w", stmt, err)
	}
	if !slices.EqualFunc(got, want, slices.Equal) {
		return fmt.Errorf("Query(%q) returned %q, want %q", stmt, got, want)
	}
	return nil
}
