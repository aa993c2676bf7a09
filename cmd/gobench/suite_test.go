package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func writeSuite(t *testing.T, dir, text string) string {
	t.Helper()
	p := filepath.Join(dir, "acceptance.suite")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A whole acceptance run in process: the disk and net ceilings, dfsio on
// the local file system, YCSB load and run on the embedded default store;
// one page with each throughput against its ceiling.
func TestSuiteRunsStepsAndWritesReport(t *testing.T) {
	dir := t.TempDir()
	port, _, _, stop := startNetServer(t)
	defer stop()
	file := writeSuite(t, dir, fmt.Sprintf(`# loopback acceptance
title Loopback acceptance
report %[1]s/out.html
disks:       disk -dir %[1]s/d1,%[1]s/d2 -bs 64K -size 4M
net out:     net -c 127.0.0.1 -p %[2]s -t 1 -P 2
net in:      net -c 127.0.0.1 -p %[2]s -t 1 -R
dfsio write: dfsio -fs file://%[1]s/dfs -write -nrFiles 2 -size 2MB -resFile %[1]s/res.log -sync
ycsb load:   load -w workloada -p recordcount=2000 -p pebble.dir=%[1]s/peb -threads 2
ycsb run:    run -w workloada -p recordcount=2000 -p operationcount=4000 -p pebble.dir=%[1]s/peb -threads 2
`, dir, port))
	code, _, errs := gobench(t, context.Background(), "suite", file)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "out.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, re := range []string{
		`<title>Loopback acceptance</title>`,
		`dfsio write aggregate: [0-9.]+ % of the disk write ceiling measured at \d\d:\d\d`,
		`<td>disk write</td><td>[0-9.]+ MB/s</td>`,
		`<td>disk read</td><td>[0-9.]+ MB/s</td>`,
		`<td>network send</td><td>[0-9.]+ MB/s</td>`,
		`<td>network receive</td><td>[0-9.]+ MB/s</td>`,
		`<b>throughput</b>: [0-9.]+ ops/s`,
		`6 passed`,
		`4194304 bytes \(4\.2 MB, 4\.0 MiB\) copied`,
		`\[SUM\]   0\.00-1\.\d\d   sec .* receiver`,
	} {
		if !regexp.MustCompile(re).MatchString(page) {
			t.Errorf("page lacks %s", re)
		}
	}
	if !strings.Contains(errs, "6 of 6 steps passed") {
		t.Errorf("stderr:\n%s", errs)
	}
}

// Problems in the file are all reported before anything runs (exit 2);
// a hive step's flags are checked before anything runs.
func TestSuiteFileProblemsExit2(t *testing.T) {
	dir := t.TempDir()
	file := writeSuite(t, dir, fmt.Sprintf(`disk -dir %[1]s -bs 4K -test sideways
net -s
ping 10.0.0.1
hive -nosuchflag 10MB
dfsio -write "-nrFiles
`, dir))
	code, _, errs := gobench(t, context.Background(), "suite", "-o", filepath.Join(dir, "x.html"), file)
	if code != 2 {
		t.Fatalf("exit %d, want 2\n%s", code, errs)
	}
	for _, want := range []string{"acceptance.suite:1: disk: -test", "acceptance.suite:2: net: -s has no place",
		`acceptance.suite:3: unknown step "ping"`, `acceptance.suite:4: hive: `, "acceptance.suite:5: unterminated"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.html")); err == nil {
		t.Error("a report was written for a file that did not parse")
	}
}

// A failing step is reported in the page and the run goes on; the exit
// status is 1.
func TestSuiteFailedStepExit1(t *testing.T) {
	dir := t.TempDir()
	file := writeSuite(t, dir, fmt.Sprintf(`nowhere: net -c 127.0.0.1 -p 1 -t 1
disks: disk -dir %[1]s -bs 64K -size 1M
`, dir))
	out := filepath.Join(dir, "r.html")
	code, _, errs := gobench(t, context.Background(), "suite", "-o", out, file)
	if code != 1 || !strings.Contains(errs, "1 of 2 steps failed") {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	b, _ := os.ReadFile(out)
	if !strings.Contains(string(b), "127.0.0.1:1") || !strings.Contains(string(b), "1 passed") || !strings.Contains(string(b), "disk write") {
		t.Fatalf("report:\n%s", b)
	}
}

func TestSuiteExampleParses(t *testing.T) {
	code, out, _ := gobench(t, context.Background(), "suite", "-example")
	if code != 0 {
		t.Fatal(code)
	}
	f, err := parseSuite(strings.NewReader(out), "example")
	if err != nil || len(f.steps) != 9 || f.title != "Cluster acceptance run" || f.steps[3].label != "dfsio write" {
		t.Fatalf("example: %v, %+v", err, f)
	}
}

// The hive step reads each query's median from gobench hive's table.
func TestHiveSuiteStepReadsTheTable(t *testing.T) {
	table := `query  runs  failed  min(ms)  median(ms)  max(ms)  p95(ms)  p99(ms)  rows  first row
 SCAN     6       0   1500.2      1700.0   2100.5   2100.5   2100.5     1  [42]
  JOIN     6       0    900.0      1234.5   1500.0   1500.0   1500.0    10  [a 1]
 TYPO     1       1        -           -        -        -        -     0
`
	var got []string
	for _, m := range hiveRow.FindAllStringSubmatch(table, -1) {
		got = append(got, m[1]+"="+m[4])
	}
	if strings.Join(got, " ") != "SCAN=1700.0 JOIN=1234.5" {
		t.Errorf("rows read: %v", got)
	}
}
