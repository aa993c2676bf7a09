package driverstest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
)

// Run runs the conformance suite. open is called once per sub-test and must
// return a DB configured with [Schema] that the sub-test owns: the suite
// closes its connections and then the DB. open may call t.Fatal.
func Run(t *testing.T, open func(t *testing.T) drivers.DB, opts ...Option) {
	h := &harness{cfg: newConfig(opts), open: open, nonce: nonce()}
	if h.cfg.query != nil {
		t.Run("RecordsUnsupported", h.testRecordsUnsupported)
		t.Run("Query", h.testQuery)
		t.Run("Capabilities", h.testCapabilities)
		return
	}
	if h.cfg.noData {
		t.Run("NoData", h.testNoData)
		t.Run("Lifecycle", h.testLifecycle)
		t.Run("Capabilities", h.testCapabilities)
		return
	}
	tests := []struct {
		name string
		fn   func(t *testing.T)
	}{
		{"InsertRead", h.testInsertRead},
		{"ReadFields", h.testReadFields},
		{"UpdateSubset", h.testUpdateSubset},
		{"Delete", h.testDelete},
		{"ReadMissing", h.testReadMissing},
		{"InsertOverwrites", h.testInsertOverwrites},
		{"ScanOrder", h.testScanOrder},
		{"ScanLimits", h.testScanLimits},
		{"ScanFields", h.testScanFields},
		{"ScanStop", h.testScanStop},
		{"Concurrent", h.testConcurrent},
		{"LargeValue", h.testLargeValue},
		{"BinaryValue", h.testBinaryValue},
		{"EmptyValue", h.testEmptyValue},
		{"Lifecycle", h.testLifecycle},
		{"Capabilities", h.testCapabilities},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.fn)
	}
}

type harness struct {
	cfg   config
	open  func(t *testing.T) drivers.DB
	nonce string
}

// nonce makes table names unique per run, so a persistent server never
// serves one run the data of another.
func nonce() string { return strconv.FormatInt(time.Now().UnixNano()%(1<<40), 36) }

// env is one sub-test's DB, table and first connection.
type env struct {
	h     *harness
	db    drivers.DB
	conn  drivers.Conn
	table string
}

// setup opens a DB and one Conn for the running sub-test and arranges for
// both to be closed (and the table dropped) when it ends.
func (h *harness) setup(t *testing.T) *env {
	t.Helper()
	db := h.open(t)
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("DB.Close: %v", err)
		}
	})
	name := t.Name()
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	table := h.cfg.tablePrefix + strings.ToLower(name) + "_" + h.nonce
	if ta, ok := db.(drivers.TableAdmin); ok {
		if err := ta.CreateTable(t.Context(), table, nil, true); err != nil {
			t.Fatalf("CreateTable(%q): %v", table, err)
		}
		t.Cleanup(func() {
			if err := ta.DropTable(context.Background(), table); err != nil {
				t.Errorf("DropTable(%q): %v", table, err)
			}
		})
	}
	return &env{h: h, db: db, conn: h.openConn(t, db), table: table}
}

// openConn opens a Conn that is closed when the test ends.
func (h *harness) openConn(t *testing.T, db drivers.DB) drivers.Conn {
	t.Helper()
	c, err := db.Open(t.Context())
	if err != nil {
		t.Fatalf("DB.Open: %v", err)
	}
	t.Cleanup(func() {
		if err := c.Close(context.Background()); err != nil {
			t.Errorf("Conn.Close: %v", err)
		}
	})
	return c
}

// value returns the deterministic value of field f of key in version v.
func value(key string, f, v int) []byte {
	return []byte(fmt.Sprintf("%s/%d/v%d", key, f, v))
}

// record returns a record with every field set to value(key, f, v).
func record(key string, v int) *drivers.Record {
	r := drivers.NewRecord(NumFields)
	for f := 0; f < NumFields; f++ {
		r.Set(f, value(key, f, v))
	}
	return r
}

func (e *env) insert(t *testing.T, c drivers.Conn, key string, r *drivers.Record) {
	t.Helper()
	if err := written(c.Insert(t.Context(), e.table, []byte(key), r)); err != nil {
		t.Fatalf("Insert(%q): %v", key, err)
	}
}

// eventually runs check until it returns nil, retrying for the declared
// visibility delay; it reports the last error.
func (e *env) eventually(t *testing.T, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(e.h.cfg.eventual)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%s: %v", what, err)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// expectRecord reads key with fields and compares the result with want.
func (e *env) expectRecord(t *testing.T, c drivers.Conn, key string, fields drivers.FieldSet, want *drivers.Record) {
	t.Helper()
	got := drivers.NewRecord(NumFields)
	e.eventually(t, fmt.Sprintf("Read(%q, fields %s)", key, fieldsString(fields)), func() error {
		if err := flush(t.Context(), c); err != nil {
			return err
		}
		if err := c.Read(t.Context(), e.table, []byte(key), fields, got); err != nil {
			return err
		}
		return diff(got, want)
	})
}

// expectNotFound reads key and expects NOT_FOUND.
func (e *env) expectNotFound(t *testing.T, c drivers.Conn, key string) {
	t.Helper()
	got := drivers.NewRecord(NumFields)
	e.eventually(t, fmt.Sprintf("Read(%q)", key), func() error {
		if err := flush(t.Context(), c); err != nil {
			return err
		}
		err := c.Read(t.Context(), e.table, []byte(key), nil, got)
		if s := drivers.Classify(err); s != drivers.NotFound {
			return fmt.Errorf("status %v (err %v), want NOT_FOUND", s, err)
		}
		return nil
	})
}

// diff describes how got differs from want, or returns nil.
func diff(got, want *drivers.Record) error {
	var msgs []string
	for f := 0; f < max(got.Len(), want.Len()); f++ {
		g, gok := got.Get(f)
		w, wok := want.Get(f)
		switch {
		case gok != wok:
			msgs = append(msgs, fmt.Sprintf("field %d present=%v, want %v", f, gok, wok))
		case !bytes.Equal(g, w):
			msgs = append(msgs, fmt.Sprintf("field %d = %s, want %s", f, short(g), short(w)))
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "; "))
}

// short renders a value for a failure message, eliding the middle of long
// ones.
func short(b []byte) string {
	if len(b) <= 64 {
		return strconv.Quote(string(b))
	}
	return fmt.Sprintf("%q...%q (%d bytes)", b[:24], b[len(b)-24:], len(b))
}

// subset returns a copy of r holding only the fields in fs.
func subset(r *drivers.Record, fs drivers.FieldSet) *drivers.Record {
	out := drivers.NewRecord(NumFields)
	for _, f := range fs {
		if v, ok := r.Get(f); ok {
			out.Set(f, v)
		}
	}
	return out
}

// fieldsString renders a field set for messages: "all" for nil.
func fieldsString(fs drivers.FieldSet) string {
	if fs.All() {
		return "all"
	}
	return fmt.Sprint([]int(fs))
}

// written treats a buffered write (BATCHED_OK) as a success, as the runner
// does.
func written(err error) error {
	if drivers.Classify(err) == drivers.BatchedOK {
		return nil
	}
	return err
}

// flush sends what c has buffered, when it buffers writes, so that the
// reads that follow can see them.
func flush(ctx context.Context, c drivers.Conn) error {
	if bw, ok := c.(drivers.BatchWriter); ok {
		if err := bw.Flush(ctx); err != nil {
			return fmt.Errorf("Flush: %w", err)
		}
	}
	return nil
}

// testCapabilities checks that the capabilities the DB declares
// (drivers.Capable) are exactly those its connections implement, since
// workloads are refused or accepted on the declaration alone, before any
// connection opens.
func (h *harness) testCapabilities(t *testing.T) {
	e := h.setup(t)
	declared, actual := drivers.CapsOf(e.db), drivers.ConnCaps(e.conn)
	if declared != actual {
		t.Errorf("the DB declares %v but its Conn (%T) implements %v", declared.Names(), e.conn, actual.Names())
	}
}
