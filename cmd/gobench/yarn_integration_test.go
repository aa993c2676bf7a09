//go:build yarn

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/drivers/hbase"
	"github.com/gobench/gobench/generator"
	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/props"
	"github.com/gobench/gobench/workload/core"
	"github.com/gobench/gobench/yarn"
)

// These tests need testenv's YARN, HDFS and HBase (testenv/up.sh hdfs hbase
// yarn): they fail, never skip, when one is not there. They build only with
// the yarn tag (make test-yarn starts YARN for them alone): go test -tags
// yarn -run Yarn ./cmd/gobench/, under the shared servers' lock
// (flock /tmp/gobench-realservers.lock).

// yarnTable names a fresh HBase table.
func yarnTable() string { return fmt.Sprintf("gb_yarn_%d", time.Now().UnixNano()%1e9) }

// yarnHBase configures the hbase driver for table on the testenv HBase.
func yarnHBase(t *testing.T, table string) drivers.DB {
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

// yarnReadsOK checks a run report: reads succeeded, none failed or missed.
func yarnReadsOK(t *testing.T, label, out string) {
	t.Helper()
	if strings.Contains(out, "NOT_FOUND") || strings.Contains(out, "-FAILED]") || strings.Contains(out, "Return=ERROR") {
		t.Errorf("%s: failures in the report:\n%s", label, out)
	}
	if m := regexp.MustCompile(`(?m)^\[READ\], Return=OK, (\d+)$`).FindStringSubmatch(out); m == nil || m[1] == "0" {
		t.Errorf("%s: no successful reads:\n%s", label, out)
	}
}

const yarnRM = "http://127.0.0.1:8088"

func needYarn(t *testing.T) {
	t.Helper()
	for _, s := range []struct{ name, addr string }{{"yarn", "127.0.0.1:8088"}, {"hdfs", "127.0.0.1:9000"}, {"hbase", "127.0.0.1:2181"}} {
		c, err := net.DialTimeout("tcp", s.addr, 2*time.Second)
		if err != nil {
			t.Fatalf("%s is not reachable at %s (%v); start it with: testenv/up.sh %s", s.name, s.addr, err, s.name)
		}
		c.Close()
	}
}

// yarnBinary builds the gobench the containers run, static, as
// deploy/Dockerfile builds it.
var yarnBuild struct {
	once sync.Once
	path string
	err  error
}

func gobenchBinary(t *testing.T) string {
	t.Helper()
	yarnBuild.once.Do(func() {
		dir, err := os.MkdirTemp("", "gobench-yarn-bin")
		if err != nil {
			yarnBuild.err = err
			return
		}
		yarnBuild.path = filepath.Join(dir, "gobench")
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", yarnBuild.path, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			yarnBuild.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if yarnBuild.err != nil {
		t.Fatal(yarnBuild.err)
	}
	return yarnBuild.path
}

// yarnRun runs gobench yarn -n N in process, the result files copied to
// results, and returns its exit code, stdout and stderr.
func yarnRun(t *testing.T, ctx context.Context, n int, results string, inner ...string) (int, string, string) {
	t.Helper()
	var errs syncBuffer
	code, out := yarnRunTo(ctx, gobenchBinary(t), n, results, &errs, inner...)
	removeAppDir(t, errs.String())
	return code, out, errs.String()
}

// removeAppDir removes the application's results from the shared HDFS
// (the test keeps its local copies).
func removeAppDir(t *testing.T, stderr string) {
	m := regexp.MustCompile(`results in hdfs://127\.0\.0\.1:9000(/\S+/application_\d+_\d+)`).FindStringSubmatch(stderr)
	if m == nil {
		return
	}
	fs, err := dialYarnFS("hdfs://127.0.0.1:9000", []string{"127.0.0.1:9000"}, "gobench")
	if err != nil {
		t.Log(err)
		return
	}
	defer fs.Close()
	fs.c.RemoveAll(m[1])
}

func yarnRunTo(ctx context.Context, bin string, n int, results string, errs *syncBuffer, inner ...string) (int, string) {
	args := append([]string{"yarn", "-rm", yarnRM, "-n", strconv.Itoa(n), "-user", "gobench", "-binary", bin,
		"-memory", "512m", "-results", results, "-o", filepath.Join(results, "merged.json"), "--"}, inner...)
	var out syncBuffer
	code := run(ctx, args, &out, errs)
	return code, out.String()
}

func readResults(t *testing.T, dir string, clients ...int) []*measure.Document {
	t.Helper()
	var docs []*measure.Document
	for _, k := range clients {
		d, err := readDocumentFile(filepath.Join(dir, yarnResultName(k)))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	return docs
}

// reportCounts returns the "[SERIES], Operations|Return=CODE, N" lines of a
// text report.
func reportCounts(report string) map[string]int64 {
	out := map[string]int64{}
	for _, m := range regexp.MustCompile(`(?m)^\[([A-Z-]+)\], (Operations|Return=[A-Z_]+), (\d+)$`).FindAllStringSubmatch(report, -1) {
		v, _ := strconv.ParseInt(m[3], 10, 64)
		out[m[1]+" "+m[2]] = v
	}
	return out
}

// sumCounts adds up the same counts over the client documents.
func sumCounts(t *testing.T, docs []*measure.Document) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, d := range docs {
		for _, s := range d.Series {
			if s.Operations > 0 {
				out[s.Name+" Operations"] += s.Operations
			}
			for code, c := range s.Codes {
				if c > 0 {
					out[s.Name+" Return="+code] += c
				}
			}
		}
	}
	return out
}

// The merged report equals the sum of the result files, count for count.
func checkSum(t *testing.T, label, report string, docs []*measure.Document) {
	t.Helper()
	got, want := reportCounts(report), sumCounts(t, docs)
	if len(want) == 0 {
		t.Fatalf("%s: the result files count nothing", label)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: merged report %q = %d, the result files add up to %d", label, k, got[k], v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok && v != 0 {
			t.Errorf("%s: merged report %q = %d, not in the result files", label, k, v)
		}
	}
}

// Issue 15's acceptance: gobench yarn -n 3 -- load, then -- run, against
// the testenv YARN + HDFS + HBase; then a run in which the test kills one
// container mid-run.
func TestYarnLoadRunAndAKilledClient(t *testing.T) {
	needYarn(t)
	ctx := context.Background()
	table := yarnTable()
	admin := yarnHBase(t, table)
	if err := admin.(drivers.TableAdmin).CreateTable(ctx, table, hbase.SplitKeys(8), false); err != nil {
		t.Fatal(err)
	}
	admin.Close()
	defer func() {
		db := yarnHBase(t, table)
		db.(drivers.TableAdmin).DropTable(ctx, table)
		db.Close()
	}()
	const records = 3000
	common := []string{"-db", "hbase", "-w", "workloada", "-p", "table=" + table, "-p", "hbase.zookeeper.quorum=127.0.0.1:2181",
		"-p", fmt.Sprintf("recordcount=%d", records), "-threads", "4"}

	// Load: three containers, disjoint key ranges.
	loadDir := t.TempDir()
	code, out, errs := yarnRun(t, ctx, 3, loadDir, append([]string{"load"}, common...)...)
	if code != exitOK {
		t.Fatalf("yarn load: exit %d\n%s\n%s", code, out, errs)
	}
	docs := readResults(t, loadDir, 0, 1, 2)
	checkSum(t, "load", out, docs)
	for k, d := range docs {
		if d.Config["gobench.client"] != strconv.Itoa(k) || d.Config["gobench.clients"] != "3" {
			t.Errorf("client-%d.json: gobench.client %q of %q", k, d.Config["gobench.client"], d.Config["gobench.clients"])
		}
		if n := insertsOK(d); n != records/3 {
			t.Errorf("client %d inserted %d records, want its slice of %d", k, n, records/3)
		}
	}
	if v := value(t, out, "INSERT", "Return=OK"); v != strconv.Itoa(records) {
		t.Errorf("merged INSERT Return=OK = %s, want %d", v, records)
	}
	checkEveryKeyOnce(t, table, records)

	// Run: the full mix in each container; the merge adds up.
	runDir := t.TempDir()
	code, out, errs = yarnRun(t, ctx, 3, runDir, append([]string{"run"}, append(common, "-p", "operationcount=2000")...)...)
	if code != exitOK {
		t.Fatalf("yarn run: exit %d\n%s\n%s", code, out, errs)
	}
	checkSum(t, "run", out, readResults(t, runDir, 0, 1, 2))
	if v := value(t, out, "OVERALL", "Clients"); v != "3" {
		t.Errorf("[OVERALL], Clients = %s, want 3", v)
	}
	yarnReadsOK(t, "yarn run", out)

	// A run in which client 1's container is killed (through the
	// ResourceManager, as an operator would) once all three run.
	killDir := t.TempDir()
	var kerrs syncBuffer
	done := make(chan struct{})
	var kcode int
	var kout string
	bin := gobenchBinary(t)
	go func() {
		defer close(done)
		kcode, kout = yarnRunTo(ctx, bin, 3, killDir, &kerrs, append([]string{"run"}, append(common, "-p", "operationcount=100000000", "-p", "maxexecutiontime=30", "-target", "600")...)...)
	}()
	kerr := killClient(ctx, &kerrs, done)
	<-done
	stderr := kerrs.String()
	removeAppDir(t, stderr)
	if kerr != nil {
		t.Fatalf("kill client 1: %v\n%s", kerr, stderr)
	}
	t.Logf("gobench yarn with client 1 killed: exit %d\n%s\n%s", kcode, stderr, kout)
	if kcode != exitFailed {
		t.Errorf("exit %d with a killed client, want 1\n%s", kcode, stderr)
	}
	for _, want := range []string{"gobench yarn: client 1 killed or died while running (container container_", "1 of 3 clients did not complete: client 1 killed or died", "no result from client 1"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if v := value(t, kout, "OVERALL", "Clients"); v != "2" {
		t.Errorf("[OVERALL], Clients = %s, want 2 (the merge of the other two)\n%s", v, kout)
	}
	checkSum(t, "run with a killed client", kout, readResults(t, killDir, 0, 2))
	if _, err := os.Stat(filepath.Join(killDir, yarnResultName(1))); err == nil {
		t.Error("the killed client has a result file")
	}
}

func insertsOK(d *measure.Document) int64 {
	for _, s := range d.Series {
		if s.Name == "INSERT" {
			return s.Codes["OK"]
		}
	}
	return 0
}

// checkEveryKeyOnce reads back every key of the load and scans the table:
// exactly records rows, each one a loaded key.
func checkEveryKeyOnce(t *testing.T, table string, records int) {
	t.Helper()
	ctx := context.Background()
	db := yarnHBase(t, table)
	defer db.Close()
	c, err := db.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	want := map[string]bool{}
	rec := drivers.NewRecord(10)
	for n := range int64(records) {
		k := generator.AppendKey(nil, n, true, 1)
		want[string(k)] = true
		if err := c.Read(ctx, table, k, nil, rec); err != nil {
			t.Fatalf("read back key %d (%s): %v", n, k, err)
		}
	}
	seen := map[string]int{}
	if err := c.Scan(ctx, table, nil, 10*records, nil, func(k []byte, _ *drivers.Record) error {
		seen[string(k)]++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != records {
		t.Errorf("the table holds %d rows, want %d", len(seen), records)
	}
	for k, n := range seen {
		if !want[k] || n != 1 {
			t.Errorf("row %s: seen %d times, loaded: %v", k, n, want[k])
		}
	}
}

// killClient waits until the three clients of the application gobench
// yarn names on errs have started and run a few seconds, then has the
// ResourceManager kill client 1's container (FORCEFUL_SHUTDOWN: the
// NodeManager kills its processes).
func killClient(ctx context.Context, errs *syncBuffer, done <-chan struct{}) error {
	fs, err := dialYarnFS("hdfs://127.0.0.1:9000", []string{"127.0.0.1:9000"}, "gobench")
	if err != nil {
		return err
	}
	defer fs.Close()
	rm := &yarn.Client{URL: yarnRM, User: "gobench"}
	results := regexp.MustCompile(`results in hdfs://127\.0\.0\.1:9000(/\S+)`)
	deadline := time.Now().Add(4 * time.Minute)
	for time.Now().Before(deadline) {
		select {
		case <-done:
			return fmt.Errorf("gobench yarn ended before client 1 could be killed")
		case <-time.After(time.Second):
		}
		m := results.FindStringSubmatch(errs.String())
		if m == nil {
			continue
		}
		p := yarnPaths{m[1]}
		started, _ := fs.names(p.start())
		if len(yarnNumbered(started)) < 3 {
			continue
		}
		b, err := fs.read(p.startOf(1))
		if err != nil {
			return err
		}
		st := &yarnStart{}
		if err := json.Unmarshal(b, st); err != nil {
			return err
		}
		if time.Since(st.Time) < 6*time.Second { // let it run a while
			continue
		}
		fmt.Fprintf(errs, "(test) killing client 1: %s\n", st.Container)
		return rm.Signal(ctx, st.Container, "FORCEFUL_SHUTDOWN")
	}
	return fmt.Errorf("client 1 did not start within 4 minutes")
}

// appOf waits until gobench yarn names its application on errs and returns
// the id and its HDFS directory.
func appOf(t *testing.T, errs *syncBuffer, done <-chan struct{}) (string, yarnPaths) {
	t.Helper()
	re := regexp.MustCompile(`results in hdfs://127\.0\.0\.1:9000(/\S+/(application_\d+_\d+))`)
	for end := time.Now().Add(3 * time.Minute); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
		if m := re.FindStringSubmatch(errs.String()); m != nil {
			return m[2], yarnPaths{m[1]}
		}
		select {
		case <-done:
			t.Fatalf("gobench yarn ended before naming its application:\n%s", errs.String())
		default:
		}
	}
	t.Fatalf("gobench yarn named no application within 3 minutes:\n%s", errs.String())
	return "", yarnPaths{}
}

// waitStarted waits until n clients have started and run for a while.
func waitStarted(t *testing.T, p yarnPaths, n int, done <-chan struct{}) {
	t.Helper()
	fs, err := dialYarnFS("hdfs://127.0.0.1:9000", []string{"127.0.0.1:9000"}, "gobench")
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	for end := time.Now().Add(4 * time.Minute); time.Now().Before(end); time.Sleep(time.Second) {
		select {
		case <-done:
			t.Fatal("gobench yarn ended before its clients started")
		default:
		}
		if names, _ := fs.names(p.start()); len(yarnNumbered(names)) >= n {
			time.Sleep(6 * time.Second)
			return
		}
	}
	t.Fatalf("%d clients did not start within 4 minutes", n)
}

// Ctrl-C: the first interrupt asks the clients to stop; they write what
// ran and the merge is printed long before maxexecutiontime. The second
// kills the application.
func TestYarnInterrupt(t *testing.T) {
	needYarn(t)
	bin := gobenchBinary(t)
	rm := &yarn.Client{URL: yarnRM, User: "gobench"}
	long := []string{"run", "-db", "basic", "-w", "workloada", "-p", "operationcount=1000000000", "-p", "maxexecutiontime=600", "-target", "200"}

	t.Run("once", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var errs syncBuffer
		var code int
		var out string
		done := make(chan struct{})
		t0 := time.Now()
		go func() {
			defer close(done)
			code, out = yarnRunTo(ctx, bin, 2, t.TempDir(), &errs, long...)
		}()
		id, p := appOf(t, &errs, done)
		waitStarted(t, p, 2, done)
		cancel()
		select {
		case <-done:
		case <-time.After(3 * time.Minute):
			t.Fatalf("gobench yarn did not end within 3 minutes of the interrupt:\n%s", errs.String())
		}
		removeAppDir(t, errs.String())
		t.Logf("interrupted once: exit %d after %v\n%s\n%s", code, time.Since(t0), errs.String(), out)
		if !strings.Contains(errs.String(), "interrupted: asked the clients to stop and write their results") {
			t.Errorf("stderr does not say it asked the clients to stop:\n%s", errs.String())
		}
		if code != exitOK || value(t, out, "OVERALL", "Clients") != "2" {
			t.Errorf("exit %d, want 0 with the merge of both clients:\n%s", code, out)
		}
		if ops, _ := strconv.Atoi(value(t, out, "READ", "Operations")); ops == 0 {
			t.Errorf("no reads in the merge of an interrupted run:\n%s", out)
		}
		app, err := rm.App(context.Background(), id)
		if err != nil || app.FinalStatus != "SUCCEEDED" {
			t.Errorf("the application after a graceful stop: %+v (%v), want SUCCEEDED", app, err)
		}
	})

	// The second interrupt (main runs the quit hooks, then exits) kills the
	// application at once, whatever the clients do.
	t.Run("twice", func(t *testing.T) {
		var errs syncBuffer
		done := make(chan struct{})
		go func() {
			defer close(done)
			yarnRunTo(context.Background(), bin, 2, t.TempDir(), &errs, long...)
		}()
		id, p := appOf(t, &errs, done)
		waitStarted(t, p, 2, done)
		runQuitHooks()
		app, err := rm.App(context.Background(), id)
		if err != nil || app.State != "KILLED" {
			t.Errorf("after the second interrupt: %+v (%v), want KILLED", app, err)
		}
		select {
		case <-done:
		case <-time.After(2 * time.Minute):
			t.Fatalf("gobench yarn did not end within 2 minutes of the kill:\n%s", errs.String())
		}
		if !strings.Contains(errs.String(), "gobench yarn: killed "+id+" (second interrupt)") {
			t.Errorf("stderr does not say it killed the application:\n%s", errs.String())
		}
		removeAppDir(t, errs.String())
		t.Logf("interrupted twice:\n%s", errs.String())
	})
}
