package driverstest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/gobench/gobench/drivers"
)

// testNoData checks a driver declared with [NoData]: every operation
// succeeds, reads return no fields and scans no records.
func (h *harness) testNoData(t *testing.T) {
	e := h.setup(t)
	conns := make([]drivers.Conn, h.cfg.workers)
	for w := range conns {
		conns[w] = h.openConn(t, e.db)
	}
	errs := make(chan error, len(conns))
	var wg sync.WaitGroup
	for w, c := range conns {
		wg.Go(func() { errs <- h.noDataOps(t, e, c, fmt.Sprintf("user%d", w)) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

func (h *harness) noDataOps(t *testing.T, e *env, c drivers.Conn, key string) error {
	ctx := t.Context()
	k := []byte(key)
	r := record(key, 0)
	if err := written(c.Insert(ctx, e.table, k, r)); err != nil {
		return fmt.Errorf("Insert(%q): %w", key, err)
	}
	if err := written(c.Update(ctx, e.table, k, subset(r, drivers.FieldSet{1}))); err != nil {
		return fmt.Errorf("Update(%q): %w", key, err)
	}
	if err := flush(ctx, c); err != nil {
		return err
	}
	for _, fs := range []drivers.FieldSet{nil, {1, 2}} {
		got := record("stale", 1)
		if err := c.Read(ctx, e.table, k, fs, got); err != nil {
			return fmt.Errorf("Read(%q, fields %s): %w", key, fieldsString(fs), err)
		}
		if got.Count() != 0 {
			return fmt.Errorf("Read(%q, fields %s) returned %d fields, want none", key, fieldsString(fs), got.Count())
		}
		rows := 0
		err := c.Scan(ctx, e.table, k, 10, fs, func([]byte, *drivers.Record) error { rows++; return nil })
		if err != nil {
			return fmt.Errorf("Scan(%q, fields %s): %w", key, fieldsString(fs), err)
		}
		if rows != 0 {
			return fmt.Errorf("Scan(%q, fields %s) visited %d records, want none", key, fieldsString(fs), rows)
		}
	}
	if err := written(c.Delete(ctx, e.table, k)); err != nil {
		return fmt.Errorf("Delete(%q): %w", key, err)
	}
	return nil
}
