//go:build integration

package hdfs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
)

// The tests in this file freeze the testenv HDFS daemons with SIGSTOP. Like
// every real-server test they must run under the lock:
//
//	flock /tmp/gobench-realservers.lock go test -tags integration -run Frozen ./drivers/hdfs/
//
// A detached watchdog resumes a frozen daemon after two minutes even if this
// test binary dies (a -timeout panic runs no cleanup).

// Each operation gets this budget while a daemon is frozen, and must return
// within it plus slack (the machine is shared and loaded).
const (
	frozenBudget = 2 * time.Second
	frozenSlack  = 2 * time.Second
)

// testenvRun is testenv's run dir, as testenv/lib.sh computes it.
func testenvRun() string {
	if run := os.Getenv("GOBENCH_RUN"); run != "" {
		return run
	}
	tmp := os.Getenv("TMPDIR")
	if tmp == "" {
		tmp = "/tmp"
	}
	return filepath.Join(tmp, "gobench-testenv")
}

// testenvPid returns the pid of a running testenv HDFS daemon (name "nn" or
// "dn") from its pid file, checking its -Dgobench.testenv marker so that a
// reused pid is never frozen.
func testenvPid(t *testing.T, name string) int {
	t.Helper()
	pidFile := filepath.Join(testenvRun(), "hdfs", name+".pid")
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("HDFS %s pid: %v (start HDFS with testenv/up.sh hdfs; GOBENCH_RUN sets the run dir)", name, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 1 {
		t.Fatalf("%s: bad pid %q", pidFile, b)
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || !bytes.Contains(cmdline, []byte("-Dgobench.testenv=hdfs-"+name+"\x00")) {
		t.Fatalf("pid %d from %s is not the testenv HDFS %s (%v); restart it with testenv/up.sh hdfs", pid, pidFile, name, err)
	}
	return pid
}

// freeze stops pid until thaw (also run by t.Cleanup) resumes it.
func freeze(t *testing.T, pid int) (thaw func()) {
	t.Helper()
	wd := exec.Command("sh", "-c", fmt.Sprintf("sleep 120; kill -CONT %d", pid))
	wd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := wd.Start(); err != nil {
		t.Fatalf("watchdog: %v", err)
	}
	stopWatchdog := func() {
		syscall.Kill(-wd.Process.Pid, syscall.SIGKILL) // its own process group: sh and its sleep
		wd.Wait()
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		stopWatchdog()
		t.Fatalf("SIGSTOP %d: %v", pid, err)
	}
	if err := waitStopped(pid, 5*time.Second); err != nil {
		syscall.Kill(pid, syscall.SIGCONT)
		stopWatchdog()
		t.Fatal(err)
	}
	var once sync.Once
	thaw = func() {
		once.Do(func() {
			if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
				t.Errorf("SIGCONT %d: %v", pid, err)
			}
			stopWatchdog()
		})
	}
	t.Cleanup(thaw)
	return thaw
}

// waitStopped waits until every thread of pid is stopped (state T in
// /proc/PID/task/*/stat). kill(SIGSTOP) returns once the signal is queued:
// a JVM thread running on the other CPU, or on a vCPU the host has paused,
// can still answer a request before it stops (in one run of make test a
// Read succeeded 3 ms after the SIGSTOP).
func waitStopped(pid int, bound time.Duration) error {
	end := time.Now().Add(bound)
	for {
		stats, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", pid))
		running := 0
		for _, f := range stats {
			b, err := os.ReadFile(f)
			if err != nil {
				continue // the thread has exited
			}
			// The state follows the command name, which may hold spaces
			// and parentheses: it is the field after the last ')'.
			i := bytes.LastIndexByte(b, ')')
			if i < 0 || i+2 >= len(b) {
				continue
			}
			switch b[i+2] {
			case 'T', 't', 'Z', 'X':
			default:
				running++
			}
		}
		if len(stats) > 0 && running == 0 {
			return nil
		}
		if time.Now().After(end) {
			return fmt.Errorf("pid %d: %d of its %d threads still not stopped %v after SIGSTOP", pid, running, len(stats), bound)
		}
		time.Sleep(time.Millisecond)
	}
}

// frozenFixture is a table with records user0..user4 and del1..del4, and
// an open Conn.
type frozenFixture struct {
	db    *DB
	c     *Conn
	table string
	rec   *drivers.Record
}

func newFrozenFixture(t *testing.T) *frozenFixture {
	t.Helper()
	ctx := context.Background()
	db := openDB(t)
	t.Cleanup(func() { db.Close() })
	f := &frozenFixture{db: db, table: fmt.Sprintf("gobench-frozen-%d", time.Now().UnixNano())}
	if err := db.CreateTable(ctx, f.table, nil, true); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := db.DropTable(ctx, f.table); err != nil {
			t.Errorf("drop %s: %v", f.table, err)
		}
	})
	conn, err := db.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f.c = conn.(*Conn)
	t.Cleanup(func() { f.c.Close(context.Background()) })
	f.rec = drivers.NewRecord(len(db.schema.Fields))
	for i := range f.rec.Len() {
		f.rec.Set(i, bytes.Repeat([]byte{byte('a' + i)}, 100))
	}
	for _, k := range []string{"user0", "user1", "user2", "user3", "user4", "del1", "del2", "del3", "del4"} {
		if err := f.c.Insert(ctx, f.table, []byte(k), f.rec); err != nil {
			t.Fatalf("insert %s: %v", k, err)
		}
	}
	return f
}

type frozenOp struct {
	name string
	fn   func(ctx context.Context) error
}

// ops are the operations tried while a daemon is frozen: every YCSB
// operation and a dfsio stream.
func (f *frozenFixture) ops() []frozenOp {
	out := drivers.NewRecord(f.rec.Len())
	n, del, stream := 0, 0, 0
	return []frozenOp{
		{"Read", func(ctx context.Context) error { return f.c.Read(ctx, f.table, []byte("user1"), nil, out) }},
		{"Update", func(ctx context.Context) error { return f.c.Update(ctx, f.table, []byte("user2"), f.rec) }},
		{"Insert", func(ctx context.Context) error {
			n++
			return f.c.Insert(ctx, f.table, []byte("new"+strconv.Itoa(n)), f.rec)
		}},
		{"Scan", func(ctx context.Context) error {
			return f.c.Scan(ctx, f.table, []byte("user0"), 3, nil, func([]byte, *drivers.Record) error { return nil })
		}},
		{"Delete", func(ctx context.Context) error {
			del++
			return f.c.Delete(ctx, f.table, []byte("del"+strconv.Itoa(del)))
		}},
		{"StreamWrite", func(ctx context.Context) error {
			stream++ // a name with '.' is not a record: Scan skips it
			w, err := f.c.Create(ctx, "/"+f.table+"/.stream"+strconv.Itoa(stream), 64<<10)
			if err != nil {
				return err
			}
			if _, err := w.Write(bytes.Repeat([]byte{'x'}, 1<<20)); err != nil {
				w.Close()
				return err
			}
			return w.Close()
		}},
		{"StreamRead", func(ctx context.Context) error {
			r, err := f.c.Open(ctx, "/"+f.table+"/user3")
			if err != nil {
				return err
			}
			defer r.Close()
			_, err = io.Copy(io.Discard, r)
			return err
		}},
	}
}

// checkBounded runs every op while a daemon is frozen, once with a deadline
// and once with a context cancelled after the budget (the runner's drain),
// and requires each to return within budget + slack with the context's
// error. mayPass names ops that need nothing from the frozen daemon.
func (f *frozenFixture) checkBounded(t *testing.T, mayPass map[string]bool) {
	t.Helper()
	for _, op := range f.ops() {
		for _, cancelled := range []bool{false, true} {
			ctx, cancel := context.WithTimeout(context.Background(), frozenBudget)
			want := context.DeadlineExceeded
			if cancelled {
				ctx, cancel = context.WithCancel(context.Background())
				time.AfterFunc(frozenBudget, cancel)
				want = context.Canceled
			}
			t0 := time.Now()
			err := op.fn(ctx)
			took := time.Since(t0)
			cancel()
			what := fmt.Sprintf("%s (cancelled=%v)", op.name, cancelled)
			t.Logf("%s: %v after %v", what, err, took.Round(time.Millisecond))
			if took > frozenBudget+frozenSlack {
				t.Errorf("%s returned after %v; its context ended after %v", what, took, frozenBudget)
			}
			if err == nil && !mayPass[op.name] {
				t.Errorf("%s succeeded while the daemon was frozen", what)
			}
			if err != nil && !errors.Is(err, want) {
				t.Errorf("%s: error %v does not wrap %v", what, err, want)
			}
		}
	}
}

// checkRecovered requires the same Conn to work again once the daemon runs.
func (f *frozenFixture) checkRecovered(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := f.c.Insert(ctx, f.table, []byte("after"), f.rec); err != nil {
		t.Fatalf("insert after the thaw: %v", err)
	}
	out := drivers.NewRecord(f.rec.Len())
	for _, k := range []string{"after", "user0"} {
		if err := f.c.Read(ctx, f.table, []byte(k), nil, out); err != nil {
			t.Fatalf("read %s after the thaw: %v", k, err)
		}
		if v, _ := out.Get(0); !bytes.Equal(v, bytes.Repeat([]byte{'a'}, 100)) {
			t.Fatalf("read %s after the thaw: field0 = %q", k, v)
		}
	}
}

// A hung DataNode: each operation that needs it returns when its context
// ends, not when hdfs.timeout (30 s here) or the DataNode does.
func TestIntegrationDataNodeFrozen(t *testing.T) {
	f := newFrozenFixture(t)
	thaw := freeze(t, testenvPid(t, "dn"))
	// Delete is a NameNode call only.
	f.checkBounded(t, map[string]bool{"Delete": true})
	thaw()
	f.checkRecovered(t)
}

// A hung NameNode: every operation returns when its context ends, and the
// Conn recovers afterwards (an RPC cut mid-way leaves its answer in the
// connection; the driver must not read it as the next call's).
func TestIntegrationNameNodeFrozen(t *testing.T) {
	f := newFrozenFixture(t)
	thaw := freeze(t, testenvPid(t, "nn"))
	f.checkBounded(t, nil)
	thaw()
	f.checkRecovered(t)
}

// The testenv HDFS keeps its temporary files in its run dir, which down.sh
// removes even after a kill -9: each daemon's Jetty work dir (once left in
// /tmp as jetty-127_0_0_1-9870-hdfs-* whenever a test killed the NameNode)
// is under $GOBENCH_RUN/hdfs/tmp, and no /tmp/hsperfdata_$USER/PID file
// exists for it. (Servers started by an older testenv fail this: restart
// them with testenv/down.sh hdfs; testenv/up.sh hdfs.)
func TestIntegrationTestenvTempFilesInRunDir(t *testing.T) {
	for _, d := range []struct{ name, jetty string }{{"nn", "jetty-127_0_0_1-9870-hdfs-*"}, {"dn", "jetty-127_0_0_1-*-datanode-*"}} {
		pid := testenvPid(t, d.name)
		tmp := filepath.Join(testenvRun(), "hdfs", "tmp")
		if m, _ := filepath.Glob(filepath.Join(tmp, d.jetty)); len(m) == 0 {
			all, _ := filepath.Glob(filepath.Join(os.TempDir(), d.jetty))
			t.Errorf("HDFS %s (pid %d): no %s in %s (in %s: %d)", d.name, pid, d.jetty, tmp, os.TempDir(), len(all))
		}
		matches, _ := filepath.Glob(filepath.Join("/tmp", "hsperfdata_*", strconv.Itoa(pid)))
		if len(matches) > 0 {
			t.Errorf("HDFS %s (pid %d) has %v", d.name, pid, matches)
		}
	}
}
