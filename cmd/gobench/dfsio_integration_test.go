//go:build integration

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gobench/gobench/drivers"
	"github.com/gobench/gobench/props"
)

// These tests need the real HDFS of testenv (`testenv/up.sh hdfs`, NameNode
// on 127.0.0.1:9000). They work below their own base directory.

func hdfsFS(t *testing.T) drivers.FileSystem {
	t.Helper()
	drv, err := drivers.Lookup("hdfs")
	if err != nil {
		t.Fatal(err)
	}
	db, err := drv.Configure(props.NewDecoder(&props.Set{}), drivers.Schema{Table: "t"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.Open(context.Background())
	if err != nil {
		t.Fatalf("HDFS not reachable (start it with testenv/up.sh hdfs): %v", err)
	}
	t.Cleanup(func() { c.Close(context.Background()); db.Close() })
	return c.(drivers.FileSystem)
}

func readHDFS(t *testing.T, fs drivers.FileSystem, name string) string {
	t.Helper()
	r, err := fs.Open(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, _ := io.ReadAll(r)
	return string(b)
}

// TestIntegrationDFSIO: -write, -read, -read -random, -append and -clean with
// 4 files of 64 MB give TestDFSIO's lines with the right totals, and
// Throughput is TestDFSIO's formula over the reducer's sums.
func TestIntegrationDFSIO(t *testing.T) {
	t.Chdir(t.TempDir())
	fs := hdfsFS(t)
	base := fmt.Sprintf("/gobench-it/dfsio-%d", time.Now().UnixNano())
	defer fs.RemoveAll(context.Background(), "/gobench-it")
	for _, c := range []struct {
		args  []string
		name  string
		out   string
		minMB float64
		exact bool
	}{
		{[]string{"-write"}, "write", "io_write", 256, true},
		{[]string{"-read"}, "read", "io_read", 256, true},
		{[]string{"-read", "-random"}, "random read", "io_random_read", 256, false},
		{[]string{"-append"}, "append", "io_append", 256, true},
	} {
		args := append([]string{"dfsio", "-D", "test.build.data=" + base, "-nrFiles", "4", "-size", "64MB"}, c.args...)
		code, stdout, stderr := gobench(t, context.Background(), args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", c.args, code, stderr)
		}
		if got := summaryValue(t, stderr, "----- TestDFSIO ----- "); got != c.name {
			t.Errorf("%v: test %q", c.args, got)
		}
		if got := summaryValue(t, stderr, "        Number of files"); got != "4" {
			t.Errorf("%v: files %q, want 4", c.args, got)
		}
		mbText := summaryValue(t, stderr, " Total MBytes processed")
		mb, _ := strconv.ParseFloat(mbText, 64)
		if c.exact && mbText != "256" || mb < c.minMB || mb > c.minMB+4*1000000.0/(1<<20) {
			t.Errorf("%v: Total MBytes %q, want 256 (random: below 256 + 4 buffers)", c.args, mbText)
		}
		part := readHDFS(t, fs, base+"/"+c.out+"/part-00000")
		m := regexp.MustCompile(`l:size\t(\d+)\nl:tasks\t4\nl:time\t(\d+)\n`).FindStringSubmatch(part)
		if m == nil {
			t.Fatalf("%v: part-00000:\n%s", c.args, part)
		}
		size, _ := strconv.ParseInt(m[1], 10, 64)
		ms, _ := strconv.ParseInt(m[2], 10, 64)
		want := decimal2Java(float32(size) / (1 << 20) / (float32(ms) / 1000))
		if got := summaryValue(t, stderr, "      Throughput mb/sec"); got != want {
			t.Errorf("%v: Throughput %s, want %s = (%d B / 2^20) / (%d ms / 1000)", c.args, got, want, size, ms)
		}
		if !strings.Contains(stdout, "[FILE], Operations, 4") {
			t.Errorf("%v: report:\n%s", c.args, stdout)
		}
		t.Logf("%v: %s MB, Throughput %s mb/sec, %s", c.args, mbText, want, summaryValue(t, stderr, "gobench: Aggregate throughput mb/sec"))
	}
	code, _, stderr := gobench(t, context.Background(), "dfsio", "-D", "test.build.data="+base, "-clean")
	if code != 0 {
		t.Fatalf("-clean: exit %d\n%s", code, stderr)
	}
	if _, err := fs.Size(context.Background(), base); !errors.Is(err, drivers.ErrNotFound) {
		t.Errorf("after -clean, %s: %v; want not found", base, err)
	}
}

// decimal2Java is DecimalFormat("#.##") of a float, for the expectation.
func decimal2Java(v float32) string {
	s := strconv.FormatFloat(float64(v), 'f', 2, 64)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// TestIntegrationNamenodeDies kills the testenv NameNode during a write: the
// run must end within a bound with its failures counted and the report
// printed; HDFS is restarted afterwards.
func TestIntegrationNamenodeDies(t *testing.T) {
	up, _ := filepath.Abs(filepath.Join(testenvDir(t), "up.sh"))
	t.Chdir(t.TempDir())
	hdfsFS(t) // reachable
	runDir := os.Getenv("GOBENCH_RUN")
	if runDir == "" {
		runDir = "/tmp/gobench-testenv"
	}
	pidb, err := os.ReadFile(filepath.Join(runDir, "hdfs", "nn.pid"))
	if err != nil {
		t.Fatalf("no NameNode pid file (testenv not running HDFS here): %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(pidb)))
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	defer func() {
		out, err := exec.Command(up, "hdfs").CombinedOutput()
		if err != nil {
			t.Errorf("restarting HDFS: %v\n%s", err, out)
		}
	}()
	base := fmt.Sprintf("/gobench-it/kill-%d", time.Now().UnixNano())
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"dfsio", "-D", "test.build.data=" + base, "-D", "dfs.blocksize=4MB",
			"-D", "hdfs.timeout=10s", "-write", "-nrFiles", "4", "-size", "1GB"}, &out, &errb)
		done <- result{code, out.String(), errb.String()}
	}()
	time.Sleep(2 * time.Second)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill NameNode %d: %v", pid, err)
	}
	killed := time.Now()
	const bound = 45 * time.Second
	select {
	case r := <-done:
		t.Logf("run ended %v after the kill (%v in all), exit %d", time.Since(killed).Round(time.Millisecond), time.Since(start).Round(time.Millisecond), r.code)
		for _, l := range regexp.MustCompile(`(?m)^.*(Failed files|Number of files|Return=ERROR).*$`).FindAllString(r.stderr+r.stdout, -1) {
			t.Log(l)
		}
		if r.code != 1 {
			t.Errorf("exit %d, want 1\n%s", r.code, r.stderr)
		}
		if !strings.Contains(r.stderr, "gobench: Failed files: ") || !strings.Contains(r.stderr, "----- TestDFSIO ----- : write") {
			t.Errorf("summary with the failed files missing:\n%s", r.stderr)
		}
		if !regexp.MustCompile(`\[(WRITE|CLOSE|OPEN)\], Return=ERROR, [1-9]`).MatchString(r.stdout) {
			t.Errorf("no errors counted in the report:\n%s", r.stdout)
		}
	case <-time.After(bound):
		t.Fatalf("run still going %v after the NameNode was killed", bound)
	}
}

// testenvDir finds testenv/ from the package directory.
func testenvDir(t *testing.T) string {
	t.Helper()
	wd, _ := os.Getwd()
	for _, d := range []string{os.Getenv("GOBENCH_TESTENV"), "../../testenv"} {
		if d != "" {
			if _, err := os.Stat(filepath.Join(d, "up.sh")); err == nil {
				return d
			}
		}
	}
	t.Fatalf("testenv/up.sh not found from %s", wd)
	return ""
}

// TestIntegrationYCSBOnHDFS: YCSB's workload A loads and runs on -db hdfs
// (one file per record) and reads back what it wrote.
func TestIntegrationYCSBOnHDFS(t *testing.T) {
	t.Chdir(t.TempDir())
	fs := hdfsFS(t)
	table := fmt.Sprintf("gobench_it_ycsb_%d", time.Now().UnixNano()%1e9)
	defer fs.RemoveAll(context.Background(), "/"+table)
	common := []string{"-db", "hdfs", "-w", "workloada", "-p", "recordcount=200", "-p", "operationcount=400",
		"-p", "table=" + table, "-threads", "4", "-p", "dataintegrity=true"}
	code, stdout, stderr := gobench(t, context.Background(), append([]string{"load"}, common...)...)
	if code != 0 {
		t.Fatalf("load: exit %d\n%s", code, stderr)
	}
	if got := value(t, stdout, "INSERT", "Return=OK"); got != "200" {
		t.Errorf("load: INSERT Return=OK %s, want 200\n%s", got, stdout)
	}
	loadTput := value(t, stdout, "OVERALL", "Throughput(ops/sec)")
	code, stdout, stderr = gobench(t, context.Background(), append([]string{"run"}, common...)...)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	reads, _ := strconv.Atoi(value(t, stdout, "READ", "Return=OK"))
	updates, _ := strconv.Atoi(value(t, stdout, "UPDATE", "Return=OK"))
	if reads+updates != 400 || reads == 0 {
		t.Errorf("run: READ OK %d + UPDATE OK %d, want 400 in all\n%s", reads, updates, stdout)
	}
	if strings.Contains(stdout, "Return=ERROR") || strings.Contains(stdout, "Return=NOT_FOUND") || strings.Contains(stdout, "UNEXPECTED_STATE") {
		t.Errorf("run: failures in the report:\n%s", stdout)
	}
	t.Logf("load %s ops/s, run %s ops/s (READ p95 %s us, UPDATE p95 %s us)", loadTput, value(t, stdout, "OVERALL", "Throughput(ops/sec)"),
		value(t, stdout, "READ", "95thPercentileLatency(us)"), value(t, stdout, "UPDATE", "95thPercentileLatency(us)"))
}
