package hive_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gobench/gobench/drivers"
	_ "github.com/gobench/gobench/drivers/memory"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workload/hive"
)

// fakeHive answers the built-in queries from the Go reference of the data
// set it is told about (or lies, for lie), accepts the set-up statements
// and logs every statement.
type fakeHive struct {
	ds   hive.Dataset
	lie  string // the built-in query name whose answer it gets wrong
	mu   sync.Mutex
	log  []string
	once sync.Once
	ans  *hive.Answers
}

func (f *fakeHive) Keys() []props.Key { return nil }
func (f *fakeHive) Configure(*props.Decoder, drivers.Schema) (drivers.DB, error) {
	return f, nil
}
func (f *fakeHive) Open(context.Context) (drivers.Conn, error) { return &fakeConn{f: f}, nil }
func (f *fakeHive) Close() error                               { return nil }
func (f *fakeHive) Caps() drivers.Caps                         { return drivers.CapQuery }

type fakeConn struct{ f *fakeHive }

func (c *fakeConn) Query(ctx context.Context, stmt string, fn func(cols, row []string) error) error {
	f := c.f
	f.mu.Lock()
	f.log = append(f.log, stmt)
	f.mu.Unlock()
	f.once.Do(func() { f.ans, _ = f.ds.Answers(ctx, 2) })
	if strings.HasPrefix(stmt, "SHOW TBLPROPERTIES") {
		return &drivers.StatusError{Status: drivers.BadRequest, Err: errors.New("Table not found")}
	}
	if stmt == "SELECT 1" {
		return fn([]string{"_c0"}, []string{"1"})
	}
	if stmt == "SELEC 1" {
		return &drivers.StatusError{Status: drivers.BadRequest, Err: errors.New("ParseException line 1:0")}
	}
	for i, b := range hive.Builtins {
		if stmt == b.SQL {
			rows := f.ans.Expected(i + 1)
			if b.Name == f.lie {
				rows = rows[1:]
			}
			for _, r := range rows {
				if err := fn([]string{"a", "b"}[:len(r)], r); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return nil // DDL, LOAD DATA, USE
}

func (c *fakeConn) Read(context.Context, string, []byte, drivers.FieldSet, *drivers.Record) error {
	return errors.ErrUnsupported
}
func (c *fakeConn) Scan(context.Context, string, []byte, int, drivers.FieldSet, func([]byte, *drivers.Record) error) error {
	return errors.ErrUnsupported
}
func (c *fakeConn) Update(context.Context, string, []byte, *drivers.Record) error {
	return errors.ErrUnsupported
}
func (c *fakeConn) Insert(context.Context, string, []byte, *drivers.Record) error {
	return errors.ErrUnsupported
}
func (c *fakeConn) Delete(context.Context, string, []byte) error { return errors.ErrUnsupported }
func (c *fakeConn) Close(context.Context) error                  { return nil }

func run(t *testing.T, f *fakeHive, kv ...string) (*workload.Plan, error) {
	t.Helper()
	var s props.Set
	for i := 0; i < len(kv); i += 2 {
		s.Add(props.Value{Key: kv[i], Value: kv[i+1], Source: "-p"})
	}
	plan, err := workload.Prepare(&s, workload.WithDriver("fakehive", f))
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	cfg := plan.Job().(*hive.Job).Config()
	f.ds = cfg.Dataset
	_, err = plan.Run(context.Background())
	return plan, err
}

func TestJobRunsAndVerifies(t *testing.T) {
	dir := t.TempDir()
	f := &fakeHive{}
	plan, err := run(t, f, "workload", "hive", "threadcount", "2", hive.KeyRepeat, "3", hive.KeyWarmup, "1",
		hive.KeyScale, "3000", hive.KeyDataDir, dir, hive.KeyVerify, "true", hive.KeyDatabase, "bench1", "gobench.seed", "5")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	job := plan.Job().(*hive.Job)
	for _, r := range job.Results() {
		if r.Runs != 8 || r.Failed != 0 || r.Verified != 8 || r.Mismatch != "" || r.RowsDiffer {
			t.Errorf("%s: %+v", r.Query.Name, r)
		}
	}
	if r := job.Results()[1]; r.Rows != 10 || len(r.FirstRow) != 2 || r.FirstRow[0] != "FICTION" {
		t.Errorf("AGGREGATE: rows %d, first %q", r.Rows, r.FirstRow)
	}
	for _, tb := range hive.Tables() {
		if m, _ := filepath.Glob(filepath.Join(dir, tb.String(), "part-*")); len(m) == 0 {
			t.Errorf("no %s files in %s", tb, dir)
		}
	}
	f.mu.Lock()
	log := slices.Clone(f.log)
	f.mu.Unlock()
	for _, want := range []string{"CREATE DATABASE IF NOT EXISTS bench1", "USE bench1",
		"LOAD DATA LOCAL INPATH '" + dir + "/transactions' OVERWRITE INTO TABLE transactions"} {
		if !slices.Contains(log, want) {
			t.Errorf("no statement %q in %q", want, log[:min(len(log), 12)])
		}
	}
	if n := strings.Count(strings.Join(log, "\n"), "USE bench1"); n != 3 {
		t.Errorf("USE bench1 %d times, want 3 (set-up and each session)", n)
	}
	// A second run reuses the files (the fake has no tables: it reloads).
	st := job.Setup()
	if st.Generated.Reuse {
		t.Error("first run reused files")
	}
	plan2, err := run(t, &fakeHive{}, "workload", "hive", hive.KeyScale, "3000", hive.KeyDataDir, dir, hive.KeyQueries, "scan")
	if err != nil || !plan2.Job().(*hive.Job).Setup().Generated.Reuse {
		t.Errorf("second run: err %v, reuse %v", err, plan2.Job().(*hive.Job).Setup().Generated.Reuse)
	}
}

// Warm-up passes are left out of the histograms; measured ones are all in.
func TestJobMeasuresRepeatsOnly(t *testing.T) {
	var s props.Set
	for k, v := range map[string]string{"workload": "hive", "threadcount": "3", hive.KeyRepeat: "2", hive.KeyWarmup: "2",
		hive.KeyLoad: "never", hive.KeyQueries: "scan,join"} {
		s.Add(props.Value{Key: k, Value: v, Source: "-p"})
	}
	f := &fakeHive{}
	plan, err := workload.Prepare(&s, workload.WithDriver("fakehive", f))
	if err != nil {
		t.Fatal(err)
	}
	f.ds = plan.Job().(*hive.Job).Config().Dataset
	if plan.Total() != 3*4*2 {
		t.Errorf("total ops %d, want 24", plan.Total())
	}
	res, err := plan.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"SCAN", "JOIN"} {
		if got := res.Count(n, drivers.OK); got != 6 {
			t.Errorf("%s: %d measured, want 6 (3 sessions x 2 repeats)", n, got)
		}
	}
}

// A wrong answer fails the run as UNEXPECTED_STATE naming the difference;
// bad SQL fails it as BAD_REQUEST.
func TestJobFailures(t *testing.T) {
	_, err := run(t, &fakeHive{lie: "JOIN3"}, "workload", "hive", hive.KeyScale, "2000", hive.KeyDataDir, t.TempDir(),
		hive.KeyVerify, "true", hive.KeyQueries, "join3,scan")
	var fe *workload.FailedError
	if !errors.As(err, &fe) || fe.Failed != 1 || fe.First.Status != drivers.UnexpectedState || !strings.Contains(err.Error(), "differs from the Go reference") {
		t.Errorf("lying server: %v", err)
	}
	sql := filepath.Join(t.TempDir(), "q.sql")
	os.WriteFile(sql, []byte("-- name: good\nSELECT 1;\n-- name: broken\nSELEC 1\n"), 0o644)
	plan, err := run(t, &fakeHive{}, "workload", "hive", hive.KeyLoad, "never", hive.KeySQLFile, sql, hive.KeyRepeat, "2")
	if !errors.As(err, &fe) || fe.Failed != 2 || fe.First.Status != drivers.BadRequest || fe.First.Op != "BROKEN" || !strings.Contains(err.Error(), "ParseException") {
		t.Errorf("bad SQL: %v", err)
	}
	if r := plan.Job().(*hive.Job).Results(); r[0].Rows != 1 || r[0].FirstRow[0] != "1" || r[1].Failed != 2 {
		t.Errorf("results %+v", r)
	}
}

// workload=hive on a driver without SQL is refused before anything runs.
func TestNeedsQuery(t *testing.T) {
	var s props.Set
	s.Add(props.Value{Key: "workload", Value: "hive", Source: "-p"}, props.Value{Key: "db", Value: "memory", Source: "-p"},
		props.Value{Key: hive.KeyLoad, Value: "never", Source: "-p"})
	_, err := workload.Prepare(&s)
	if err == nil || !strings.Contains(err.Error(), "SQL queries (drivers.Querier)") {
		t.Errorf("memory driver: %v", err)
	}
}
