package driverstest_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/driverstest"
	"github.com/gobench/gobench/drivers/memory"
)

// bugEnv selects the bug TestBrokenDriver plants; it is set only when
// TestSuiteCatchesBugs runs this test binary again.
const bugEnv = "GOBENCH_DRIVERSTEST_BUG"

// bugs maps each planted bug to a sub-test that must fail because of it.
var bugs = map[string]string{
	"update-replaces":     "UpdateSubset",
	"read-ignores-fields": "ReadFields",
	"read-no-reset":       "ReadFields",
	"delete-noop":         "Delete",
	"missing-is-ok":       "ReadMissing",
	"scan-skips-first":    "ScanLimits",
	"scan-ignores-count":  "ScanLimits",
	"scan-ignores-fields": "ScanFields",
	"scan-ignores-stop":   "ScanStop",
	"truncates-large":     "LargeValue",
	"drops-empty":         "EmptyValue",
}

// TestSuiteCatchesBugs runs the suite against the memory driver with one
// bug planted at a time, in a child process, and checks that the suite
// fails in the sub-test meant to catch it.
func TestSuiteCatchesBugs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary once per bug")
	}
	for bug, sub := range bugs {
		t.Run(bug, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenDriver$", "-test.v")
			cmd.Env = append(os.Environ(), bugEnv+"="+bug)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("suite passed a driver with bug %s:\n%s", bug, out)
			}
			if !strings.Contains(string(out), "--- FAIL: TestBrokenDriver/"+sub) {
				t.Errorf("bug %s: sub-test %s did not fail:\n%s", bug, sub, out)
			}
		})
	}
}

// TestBrokenDriver is the child: it does nothing unless bugEnv is set.
func TestBrokenDriver(t *testing.T) {
	bug := os.Getenv(bugEnv)
	if bug == "" {
		t.Skip("only run by TestSuiteCatchesBugs")
	}
	driverstest.Run(t, func(t *testing.T) drivers.DB {
		if bug == "close-no-flush" {
			return bufferedDB{DB: memory.NewDB(driverstest.Schema())}
		}
		return brokenDB{DB: memory.NewDB(driverstest.Schema()), bug: bug}
	})
}

func TestMemoryPasses(t *testing.T) {
	driverstest.Run(t, func(t *testing.T) drivers.DB { return memory.NewDB(driverstest.Schema()) })
}

type brokenDB struct {
	*memory.DB
	bug string
}

func (d brokenDB) Open(ctx context.Context) (drivers.Conn, error) {
	c, err := d.DB.Open(ctx)
	return brokenConn{Conn: c, bug: d.bug}, err
}

type brokenConn struct {
	drivers.Conn
	bug string
}

func (c brokenConn) Read(ctx context.Context, table string, key []byte, fields drivers.FieldSet, dst *drivers.Record) error {
	switch c.bug {
	case "read-ignores-fields":
		fields = nil
	case "missing-is-ok":
		if err := c.Conn.Read(ctx, table, key, fields, dst); drivers.Classify(err) == drivers.NotFound {
			return nil
		}
	case "read-no-reset":
		tmp := drivers.NewRecord(dst.Len())
		if err := c.Conn.Read(ctx, table, key, fields, tmp); err != nil {
			return err
		}
		for i := range tmp.Len() {
			if v, ok := tmp.Get(i); ok {
				dst.Set(i, v)
			}
		}
		return nil
	}
	if err := c.Conn.Read(ctx, table, key, fields, dst); err != nil {
		return err
	}
	switch c.bug {
	case "truncates-large":
		for i := range dst.Len() {
			if v, ok := dst.Get(i); ok && len(v) > 1<<16 {
				dst.Set(i, v[:1<<16])
			}
		}
	case "drops-empty":
		tmp := drivers.NewRecord(dst.Len())
		for i := range dst.Len() {
			if v, ok := dst.Get(i); ok && len(v) > 0 {
				tmp.Set(i, v)
			}
		}
		dst.Reset()
		for i := range tmp.Len() {
			if v, ok := tmp.Get(i); ok {
				dst.Set(i, v)
			}
		}
	}
	return nil
}

func (c brokenConn) Scan(ctx context.Context, table string, start []byte, count int, fields drivers.FieldSet, fn func([]byte, *drivers.Record) error) error {
	skip := c.bug == "scan-skips-first"
	switch c.bug {
	case "scan-ignores-count":
		count = 1000
	case "scan-ignores-fields":
		fields = nil
	case "scan-skips-first":
		count++
	}
	return c.Conn.Scan(ctx, table, start, count, fields, func(k []byte, r *drivers.Record) error {
		if skip {
			skip = false
			return nil
		}
		if err := fn(k, r); err != nil && c.bug != "scan-ignores-stop" {
			return err
		}
		return nil
	})
}

func (c brokenConn) Update(ctx context.Context, table string, key []byte, values *drivers.Record) error {
	if c.bug == "update-replaces" {
		return c.Conn.Insert(ctx, table, key, values)
	}
	return c.Conn.Update(ctx, table, key, values)
}

func (c brokenConn) Delete(ctx context.Context, table string, key []byte) error {
	if c.bug == "delete-noop" {
		return nil
	}
	return c.Conn.Delete(ctx, table, key)
}
