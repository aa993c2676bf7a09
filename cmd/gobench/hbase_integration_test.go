//go:build integration

package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/hbase"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload"
	"github.com/gobench/gobench/workload/core"
)

// These tests need the real HBase of testenv (testenv/up.sh hbase): they
// fail, never skip, when it is not there.

func hbaseTable(t *testing.T, name string) string {
	return fmt.Sprintf("gb_%s_%d", name, time.Now().UnixNano()%1e9)
}

// readsAllOK checks a run report: every READ is OK, nothing is NOT_FOUND
// and nothing failed.
func readsAllOK(t *testing.T, label, out string) {
	t.Helper()
	if strings.Contains(out, "NOT_FOUND") || strings.Contains(out, "-FAILED]") || strings.Contains(out, "Return=ERROR") {
		t.Errorf("%s: failures in the report:\n%s", label, out)
	}
	if m := regexp.MustCompile(`(?m)^\[READ\], Return=OK, (\d+)$`).FindStringSubmatch(out); m == nil || m[1] == "0" {
		t.Errorf("%s: no successful reads:\n%s", label, out)
	}
}

// Issue 4's acceptance: load 100 000 records with 16 threads, run A, B, C
// and F with 64 threads, then E after a reload.
func TestHBaseWorkloadsThroughTheCLI(t *testing.T) {
	t.Chdir(t.TempDir())
	ctx := context.Background()
	table := hbaseTable(t, "ycsb")
	common := []string{"-db", "hbase", "-p", "table=" + table, "-p", "recordcount=100000"}
	load := func(label string, extra ...string) {
		t.Helper()
		args := append(append([]string{"load", "-w", "workloada"}, common...),
			append([]string{"-threads", "16", "-p", "hbase.createtable=true", "-p", "hbase.droptable=true", "-p", "hbase.splits=16"}, extra...)...)
		code, out, errs := gobench(t, ctx, args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s\n%s", label, code, out, errs)
		}
		if v := value(t, out, "INSERT", "Return=OK"); v != "100000" {
			t.Fatalf("%s: INSERT Return=OK = %s, want 100000\n%s", label, v, out)
		}
	}
	load("load")
	for _, w := range []string{"workloada", "workloadb", "workloadc", "workloadf"} {
		args := append(append([]string{"run", "-w", w}, common...), "-threads", "64", "-p", "operationcount=20000")
		code, out, errs := gobench(t, ctx, args...)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s", w, code, errs)
		}
		readsAllOK(t, w, out)
	}
	load("reload before workload E")
	defer func() {
		db := configureHBase(t, table)
		db.(drivers.TableAdmin).DropTable(ctx, table)
		db.Close()
	}()
	checkScanLengths(t, table)
}

func configureHBase(t *testing.T, table string) drivers.DB {
	t.Helper()
	var set props.Set
	set.Add(props.Value{Key: "hbase.zookeeper.quorum", Value: "127.0.0.1:2181"})
	schema := core.DefaultSpec()
	schema.Table = table
	db, err := hbase.Driver{}.Configure(props.NewDecoder(&set), schema.Schema())
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// checkScanLengths runs workload E through the workload package with every
// connection wrapped, so each scan's returned rows can be compared with the
// length asked for.
func checkScanLengths(t *testing.T, table string) {
	t.Helper()
	db := &scanCheckDB{DB: configureHBase(t, table)}
	defer db.Close()
	set := &props.Set{}
	set.Add(props.FromMap(map[string]string{
		"table": table, "recordcount": "100000", "operationcount": "5000", "threadcount": "64",
		"readproportion": "0", "updateproportion": "0", "scanproportion": "0.95", "insertproportion": "0.05",
		"requestdistribution": "zipfian", "maxscanlength": "100",
	}, "checkScanLengths")...)
	plan, err := workload.Prepare(set, workload.WithDB("hbase", db))
	if err != nil {
		t.Fatal(err)
	}
	res, err := plan.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Count("SCAN", drivers.OK); n < 4000 {
		t.Errorf("only %d scans OK of 5000 ops", n)
	}
	if res.Series("SCAN-FAILED") != nil || res.Series("INSERT-FAILED") != nil {
		t.Errorf("failed scans or inserts in workload E")
	}
	if db.scans.Load() < 4000 {
		t.Errorf("only %d scans reached HBase", db.scans.Load())
	}
	if db.short.Load() > 0 {
		t.Errorf("%d of %d scans returned fewer rows than asked (and were not at the end of the table)", db.short.Load(), db.scans.Load())
	}
}

type scanCheckDB struct {
	drivers.DB
	scans, short atomic.Int64
}

func (d *scanCheckDB) Open(ctx context.Context) (drivers.Conn, error) {
	c, err := d.DB.Open(ctx)
	if err != nil {
		return nil, err
	}
	return &scanCheckConn{Conn: c, db: d}, nil
}

type scanCheckConn struct {
	drivers.Conn
	db *scanCheckDB
}

func (c *scanCheckConn) Scan(ctx context.Context, table string, start []byte, n int, f drivers.FieldSet, fn func([]byte, *drivers.Record) error) error {
	rows := 0
	var last []byte
	err := c.Conn.Scan(ctx, table, start, n, f, func(k []byte, r *drivers.Record) error {
		rows++
		last = append(last[:0], k...)
		return fn(k, r)
	})
	c.db.scans.Add(1)
	// A scan may only come back short when it ran off the end of the
	// key space (keys sort as strings; the largest start near "user9...").
	if err == nil && rows < n && (rows == 0 || string(last) < "user9") {
		c.db.short.Add(1)
	}
	return err
}

// Interop: what Java YCSB 0.17.0 loads, gobench reads with Return=OK only,
// and the reverse.
func TestHBaseJavaYCSBInterop(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ycsb := filepath.Join(root, "testenv", "ycsb.sh")
	wa := filepath.Join(root, "workloads", "workloada")
	ctx := context.Background()
	t.Chdir(t.TempDir())
	java := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(ycsb, args...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("testenv/ycsb.sh %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	for _, dir := range []string{"java-to-gobench", "gobench-to-java"} {
		table := hbaseTable(t, strings.ReplaceAll(dir, "-", ""))
		t.Run(dir, func(t *testing.T) {
			// The table is created pre-split as YCSB's README says, in both
			// directions, so only the loader differs.
			admin := configureHBase(t, table)
			if err := admin.(drivers.TableAdmin).CreateTable(ctx, table, hbase.SplitKeys(8), true); err != nil {
				t.Fatal(err)
			}
			admin.Close()
			if dir == "java-to-gobench" {
				java("load", "-P", wa, "-p", "table="+table, "-p", "recordcount=3000", "-threads", "8")
				code, out, errs := gobench(t, ctx, "run", "-db", "hbase", "-P", wa, "-p", "table="+table,
					"-p", "recordcount=3000", "-p", "operationcount=5000", "-p", "readproportion=1", "-p", "updateproportion=0", "-threads", "16")
				if code != exitOK {
					t.Fatalf("gobench run: exit %d\n%s", code, errs)
				}
				readsAllOK(t, "gobench reading Java's data", out)
				return
			}
			code, out, errs := gobench(t, ctx, "load", "-db", "hbase", "-P", wa, "-p", "table="+table, "-p", "recordcount=3000", "-threads", "8")
			if code != exitOK {
				t.Fatalf("gobench load: exit %d\n%s\n%s", code, out, errs)
			}
			out = java("run", "-P", wa, "-p", "table="+table, "-p", "recordcount=3000", "-p", "operationcount=5000",
				"-p", "readproportion=1", "-p", "updateproportion=0", "-threads", "16")
			readsAllOK(t, "Java YCSB reading gobench's data", out)
		})
		db := configureHBase(t, table)
		db.(drivers.TableAdmin).DropTable(ctx, table)
		db.Close()
	}
}

// HBase stopped mid-run: operations fail and are counted, the run ends with
// its report in bounded time; after a restart a new run succeeds.
func TestHBaseStoppedMidRun(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	ctx := context.Background()
	table := hbaseTable(t, "fault")
	common := []string{"-db", "hbase", "-w", "workloadc", "-p", "table=" + table, "-p", "recordcount=2000",
		"-p", "hbase.client.operation.timeout=5s"}
	code, _, errs := gobench(t, ctx, append(append([]string{"load"}, common...), "-threads", "8",
		"-p", "hbase.createtable=true", "-p", "hbase.splits=4")...)
	if code != exitOK {
		t.Fatalf("load: exit %d\n%s", code, errs)
	}
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb strings.Builder
		c := run(ctx, append(append([]string{"run"}, common...), "-threads", "8", "-p", "operationcount=0",
			"-p", "maxexecutiontime=40"), &out, &errb)
		done <- result{c, out.String(), errb.String()}
	}()
	time.Sleep(3 * time.Second)
	restarted := false
	restart := func() {
		if out, err := exec.Command(filepath.Join(root, "testenv", "up.sh"), "hbase").CombinedOutput(); err != nil {
			t.Fatalf("restarting HBase: %v\n%s", err, out)
		}
		restarted = true
	}
	defer func() {
		if !restarted {
			restart()
		}
	}()
	stopped := time.Now()
	if out, err := exec.Command(filepath.Join(root, "testenv", "down.sh"), "hbase").CombinedOutput(); err != nil {
		t.Fatalf("stopping HBase: %v\n%s", err, out)
	}
	var r result
	select {
	case r = <-done:
	case <-time.After(90 * time.Second):
		t.Fatal("the run did not end within 90 s of HBase being stopped")
	}
	t.Logf("run ended %v after HBase was stopped, exit %d", time.Since(stopped).Round(time.Millisecond), r.code)
	value(t, r.out, "OVERALL", "RunTime(ms)")
	failed := regexp.MustCompile(`(?m)^\[READ\], Return=(ERROR|SERVICE_UNAVAILABLE), (\d+)$`).FindAllStringSubmatch(r.out, -1)
	if len(failed) == 0 {
		t.Errorf("no failed reads counted after HBase stopped:\n%s", r.out)
	}
	if ok := value(t, r.out, "READ", "Return=OK"); ok == "0" {
		t.Errorf("no successful reads before HBase stopped")
	}
	t.Logf("failed reads counted: %v", failed)
	// testenv's down.sh removes the server's data: load again, then run.
	restart()
	code, _, errs = gobench(t, ctx, append(append([]string{"load"}, common...), "-threads", "8",
		"-p", "hbase.createtable=true", "-p", "hbase.splits=4")...)
	if code != exitOK {
		t.Fatalf("load after restart: exit %d\n%s", code, errs)
	}
	code, out, errs := gobench(t, ctx, append(append([]string{"run"}, common...), "-threads", "8", "-p", "operationcount=2000")...)
	if code != exitOK {
		t.Fatalf("run after restart: exit %d\n%s", code, errs)
	}
	readsAllOK(t, "after restart", out)
	db := configureHBase(t, table)
	db.(drivers.TableAdmin).DropTable(ctx, table)
	db.Close()
}
