package driverstest

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/gobench/gobench/drivers"
)

func (h *harness) testInsertRead(t *testing.T) {
	e := h.setup(t)
	for i := range 5 {
		key := fmt.Sprintf("user%d", i)
		e.insert(t, e.conn, key, record(key, 0))
	}
	for i := range 5 {
		key := fmt.Sprintf("user%d", i)
		e.expectRecord(t, e.conn, key, nil, record(key, 0))
	}
}

func (h *harness) testReadFields(t *testing.T) {
	e := h.setup(t)
	key := "user42"
	full := record(key, 0)
	e.insert(t, e.conn, key, full)
	for _, fs := range []drivers.FieldSet{{0}, {NumFields - 1}, {1, 3}, {4, 2, 0}} {
		e.expectRecord(t, e.conn, key, fs, subset(full, fs))
	}
	// Read must Reset the caller's record: stale fields from an earlier
	// read may not leak into the next one.
	dst := record("stale", 9)
	if err := e.conn.Read(t.Context(), e.table, []byte(key), drivers.FieldSet{2}, dst); err != nil {
		t.Fatalf("Read(%q, fields [2]) into a used record: %v", key, err)
	}
	if err := diff(dst, subset(full, drivers.FieldSet{2})); err != nil {
		t.Errorf("Read(%q, fields [2]) into a used record: %v", key, err)
	}
}

func (h *harness) testUpdateSubset(t *testing.T) {
	e := h.setup(t)
	key := "user7"
	e.insert(t, e.conn, key, record(key, 0))
	upd := drivers.NewRecord(NumFields)
	upd.Set(0, value(key, 0, 1))
	upd.Set(3, value(key, 3, 1))
	if err := written(e.conn.Update(t.Context(), e.table, []byte(key), upd)); err != nil {
		t.Fatalf("Update(%q, fields 0 and 3): %v", key, err)
	}
	want := record(key, 0)
	want.Set(0, value(key, 0, 1))
	want.Set(3, value(key, 3, 1))
	e.expectRecord(t, e.conn, key, nil, want)
	// A second update of all fields replaces every value.
	if err := written(e.conn.Update(t.Context(), e.table, []byte(key), record(key, 2))); err != nil {
		t.Fatalf("Update(%q, all fields): %v", key, err)
	}
	e.expectRecord(t, e.conn, key, nil, record(key, 2))
}

func (h *harness) testDelete(t *testing.T) {
	e := h.setup(t)
	err := written(e.conn.Delete(t.Context(), e.table, []byte("user1")))
	if h.cfg.noDelete {
		if !errors.Is(err, errors.ErrUnsupported) || drivers.Classify(err) != drivers.NotImplemented {
			t.Errorf("Delete on a driver without delete = %v, want errors.ErrUnsupported", err)
		}
		return
	}
	for _, key := range []string{"user1", "user2"} {
		e.insert(t, e.conn, key, record(key, 0))
	}
	if err := written(e.conn.Delete(t.Context(), e.table, []byte("user1"))); err != nil {
		t.Fatalf("Delete(user1): %v", err)
	}
	e.expectNotFound(t, e.conn, "user1")
	e.expectRecord(t, e.conn, "user2", nil, record("user2", 0))
	// A deleted key can be inserted again, without stale fields.
	r := drivers.NewRecord(NumFields)
	r.Set(1, []byte("again"))
	e.insert(t, e.conn, "user1", r)
	e.expectRecord(t, e.conn, "user1", nil, r)
}

func (h *harness) testReadMissing(t *testing.T) {
	e := h.setup(t)
	e.expectNotFound(t, e.conn, "user404")
	e.insert(t, e.conn, "user4040", record("user4040", 0))
	// A key that is a prefix of a stored key is still missing.
	e.expectNotFound(t, e.conn, "user404")
	e.expectNotFound(t, e.conn, "user40400")
}

func (h *harness) testInsertOverwrites(t *testing.T) {
	e := h.setup(t)
	key := "user5"
	e.insert(t, e.conn, key, record(key, 0))
	e.insert(t, e.conn, key, record(key, 1))
	e.expectRecord(t, e.conn, key, nil, record(key, 1))
}

// testConcurrent runs many workers, each with its own Conn, on disjoint keys.
func (h *harness) testConcurrent(t *testing.T) {
	e := h.setup(t)
	const perWorker = 40
	conns := make([]drivers.Conn, h.cfg.workers)
	for w := range conns {
		conns[w] = h.openConn(t, e.db)
	}
	errs := make(chan error, h.cfg.workers)
	var wg sync.WaitGroup
	for w, c := range conns {
		wg.Go(func() { errs <- h.worker(t, e, c, w, perWorker) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	// Every write of every worker is visible through a fresh connection.
	c := h.openConn(t, e.db)
	for w := range conns {
		for i := range perWorker {
			key := fmt.Sprintf("user%d_%d", w, i)
			want := record(key, 0)
			if i%2 == 1 {
				want.Set(i%NumFields, value(key, i%NumFields, 1))
			}
			e.expectRecord(t, c, key, nil, want)
		}
	}
}

// worker inserts n keys, reads each back, updates every other one and
// reads it again. It returns the first failure.
func (h *harness) worker(t *testing.T, e *env, c drivers.Conn, w, n int) error {
	ctx := t.Context()
	got := drivers.NewRecord(NumFields)
	upd := drivers.NewRecord(NumFields)
	for i := range n {
		key := fmt.Sprintf("user%d_%d", w, i)
		want := record(key, 0)
		if err := written(c.Insert(ctx, e.table, []byte(key), want)); err != nil {
			return fmt.Errorf("worker %d: Insert(%q): %w", w, key, err)
		}
		if h.cfg.eventual == 0 {
			if err := flush(ctx, c); err != nil {
				return fmt.Errorf("worker %d: %w", w, err)
			}
			if err := c.Read(ctx, e.table, []byte(key), nil, got); err != nil {
				return fmt.Errorf("worker %d: Read(%q): %w", w, key, err)
			}
			if err := diff(got, want); err != nil {
				return fmt.Errorf("worker %d: Read(%q): %w", w, key, err)
			}
		}
		if i%2 == 1 {
			upd.Reset()
			upd.Set(i%NumFields, value(key, i%NumFields, 1))
			if err := written(c.Update(ctx, e.table, []byte(key), upd)); err != nil {
				return fmt.Errorf("worker %d: Update(%q): %w", w, key, err)
			}
		}
	}
	if err := flush(ctx, c); err != nil {
		return fmt.Errorf("worker %d: %w", w, err)
	}
	return nil
}

func (h *harness) testLargeValue(t *testing.T) {
	e := h.setup(t)
	big := make([]byte, h.cfg.maxValue)
	for i := range big {
		big[i] = byte(i*7 + i>>11)
	}
	key := "userbig"
	r := record(key, 0)
	r.Set(1, big)
	e.insert(t, e.conn, key, r)
	e.expectRecord(t, e.conn, key, nil, r)
	e.expectRecord(t, e.conn, key, drivers.FieldSet{1}, subset(r, drivers.FieldSet{1}))
}

func (h *harness) testBinaryValue(t *testing.T) {
	e := h.setup(t)
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	r := drivers.NewRecord(NumFields)
	for f := range NumFields {
		// Each field starts at a different byte so that a driver mixing up
		// fields or dropping leading zeros shows.
		r.Set(f, append(all[f:], all[:f]...))
	}
	keys := []string{"userbin"}
	if !h.cfg.noBinaryKeys {
		keys = append(keys, "\x00user\xff\x00", "\xff\xfe", "user\n\t\"")
	}
	for _, k := range keys {
		e.insert(t, e.conn, k, r)
	}
	for _, k := range keys {
		e.expectRecord(t, e.conn, k, nil, r)
	}
}

func (h *harness) testEmptyValue(t *testing.T) {
	e := h.setup(t)
	key := "userempty"
	r := record(key, 0)
	r.Set(2, nil)
	r.Set(NumFields-1, []byte{})
	e.insert(t, e.conn, key, r)
	e.expectRecord(t, e.conn, key, nil, r)
	// A record whose only field is empty exists.
	one := drivers.NewRecord(NumFields)
	one.Set(0, nil)
	e.insert(t, e.conn, "useronlyempty", one)
	e.expectRecord(t, e.conn, "useronlyempty", nil, one)
}

// testLifecycle closes connections and the DB explicitly and checks that a
// second connection works after the first is closed.
func (h *harness) testLifecycle(t *testing.T) {
	db := h.open(t)
	ctx := t.Context()
	table := h.cfg.tablePrefix + "lifecycle_" + h.nonce
	ta, admin := db.(drivers.TableAdmin)
	if admin {
		if err := ta.CreateTable(ctx, table, nil, true); err != nil {
			t.Fatalf("CreateTable(%q): %v", table, err)
		}
	}
	c1, err := db.Open(ctx)
	if err != nil {
		t.Fatalf("first Open: %v", err)
	}
	if err := written(c1.Insert(ctx, table, []byte("user1"), record("user1", 0))); err != nil {
		t.Fatalf("Insert(user1): %v", err)
	}
	if err := c1.Close(ctx); err != nil {
		t.Fatalf("first Conn.Close: %v", err)
	}
	c2, err := db.Open(ctx)
	if err != nil {
		t.Fatalf("Open after a Conn.Close: %v", err)
	}
	if !h.cfg.noData {
		e := &env{h: h, db: db, conn: c2, table: table}
		e.expectRecord(t, c2, "user1", nil, record("user1", 0))
	}
	if err := c2.Close(ctx); err != nil {
		t.Fatalf("second Conn.Close: %v", err)
	}
	if admin {
		if err := ta.DropTable(ctx, table); err != nil {
			t.Errorf("DropTable(%q): %v", table, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatalf("DB.Close: %v", err)
	}
}
