package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/measure"
)

// gobench runs the CLI in-process and returns its exit code and output.
func gobench(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(ctx, args, &out, &errb)
	return code, out.String(), errb.String()
}

// value returns the value of a report line "[metric], measurement, value".
func value(t *testing.T, report, metric, measurement string) string {
	t.Helper()
	re := regexp.MustCompile(`(?m)^\[` + regexp.QuoteMeta(metric) + `\], ` + regexp.QuoteMeta(measurement) + `, (.*)$`)
	m := re.FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("no line [%s], %s in report:\n%s", metric, measurement, report)
	}
	return m[1]
}

func TestConfigErrorsExit2NamingTheCulprit(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	bad := filepath.Join(dir, "bad.properties")
	os.WriteFile(bad, []byte("recordcount=10\nrecordcount\n"), 0o644)
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown property", []string{"run", "-db", "basic", "-p", "recordcont=5"}, []string{"recordcont", `did you mean "recordcount"`}},
		{"unparseable number", []string{"run", "-db", "basic", "-p", "operationcount=1x0"}, []string{"operationcount", "1x0", "-p"}},
		{"unknown distribution", []string{"run", "-db", "basic", "-p", "requestdistribution=zipf"}, []string{"requestdistribution", "zipf", "uniform, zipfian"}},
		{"unknown workload", []string{"run", "-w", "workloadz"}, []string{"workloadz", "workloada"}},
		{"unknown workload kind", []string{"run", "-db", "basic", "-p", "workload=site.ycsb.workloads.Nope"}, []string{"workload", "Nope", "core"}},
		{"unknown db", []string{"run", "-db", "nosuch"}, []string{"nosuch", "basic", "memory", "pebble"}},
		{"missing -P file", []string{"run", "-P", "/no/such/file"}, []string{"/no/such/file", "no such file"}},
		{"negative threads", []string{"run", "-db", "basic", "-threads", "-4"}, []string{"threadcount", "-4", "-threads"}},
		{"insert range", []string{"load", "-db", "basic", "-p", "recordcount=100", "-p", "insertstart=50", "-p", "insertcount=60"}, []string{"insertcount", "recordcount"}},
		{"malformed line", []string{"run", "-P", bad}, []string{bad + ":2", "recordcount"}},
		{"unknown command", []string{"lod"}, []string{"lod", "load"}},
		{"unknown flag", []string{"run", "--thread", "4"}, []string{"thread"}},
		{"bad -p", []string{"run", "-p", "recordcount"}, []string{"recordcount", "="}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := gobench(t, context.Background(), c.args...)
			if code != exitUsage {
				t.Fatalf("gobench %v: exit %d, want %d\nstderr: %s", c.args, code, exitUsage, errs)
			}
			if out != "" {
				t.Errorf("gobench %v wrote to stdout on a config error: %q", c.args, out)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("gobench %v: stderr lacks %q:\n%s", c.args, w, errs)
				}
			}
		})
	}
}

// Every problem is reported at once.
func TestAllProblemsAtOnce(t *testing.T) {
	code, _, errs := gobench(t, context.Background(), "run", "-db", "nosuch", "-p", "recordcount=x", "-p", "fieldcont=3", "-threads", "0")
	if code != exitUsage {
		t.Fatalf("exit %d, want 2", code)
	}
	for _, w := range []string{"nosuch", "recordcount", "fieldcont", "threadcount", "4 problems"} {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errs)
		}
	}
}

// A YCSB command line pastes in: binding name, single-dash flags, -jvm-args.
func TestYCSBCommandLinePastesIn(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out, errs := gobench(t, context.Background(), "run", "basic", "-P", "workloads/workloadc",
		"-threads", "4", "-target", "0", "-s", "-p", "operationcount=2000", "-jvm-args", "-Xmx4g")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if ops := value(t, out, "READ", "Operations"); ops != "2000" {
		t.Errorf("READ Operations = %s, want 2000", ops)
	}
	if !strings.Contains(errs, "-jvm-args") || !strings.Contains(errs, "Warning") {
		t.Errorf("no warning about -jvm-args:\n%s", errs)
	}
	if !regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3} \d+ sec: \d+ operations;`).MatchString(errs) {
		t.Errorf("no status line on stderr:\n%s", errs)
	}
}

// The newcomer's path: load then run workload A on the embedded default, in
// two invocations; the second reads what the first wrote.
func TestLoadThenRunOnPebble(t *testing.T) {
	t.Chdir(t.TempDir())
	ctx := context.Background()
	code, out, errs := gobench(t, ctx, "load", "-w", "workloada", "-p", "recordcount=5000", "-threads", "4")
	if code != exitOK {
		t.Fatalf("load: exit %d\n%s", code, errs)
	}
	if v := value(t, out, "INSERT", "Return=OK"); v != "5000" {
		t.Fatalf("load Return=OK = %s, want 5000", v)
	}
	code, out, errs = gobench(t, ctx, "run", "-w", "workloada", "-p", "recordcount=5000", "-p", "operationcount=20000", "-threads", "16", "-p", "gobench.seed=7")
	if code != exitOK {
		t.Fatalf("run: exit %d\n%s", code, errs)
	}
	r, _ := strconv.Atoi(value(t, out, "READ", "Return=OK"))
	u, _ := strconv.Atoi(value(t, out, "UPDATE", "Return=OK"))
	if r+u != 20000 || strings.Contains(out, "NOT_FOUND") {
		t.Errorf("READ %d + UPDATE %d OK, want 20000 and no NOT_FOUND:\n%s", r, u, out)
	}
	if !strings.Contains(errs, "gobench.seed=7") {
		t.Errorf("the seed is not printed:\n%s", errs)
	}
	tp, err := strconv.ParseFloat(value(t, out, "OVERALL", "Throughput(ops/sec)"), 64)
	if err != nil || tp <= 0 {
		t.Errorf("throughput %v (%v)", tp, err)
	}
}

// An interrupted run still prints its report, counting what ran.
func TestInterruptPrintsReport(t *testing.T) {
	t.Chdir(t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	code, out, errs := gobench(t, ctx, "run", "-db", "basic", "-w", "workloada", "-p", "operationcount=0", "-threads", "4")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	value(t, out, "OVERALL", "RunTime(ms)")
	if !strings.Contains(errs, "interrupted") {
		t.Errorf("stderr does not say the run was interrupted:\n%s", errs)
	}
}

func TestJSONExportIsValid(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	file := filepath.Join(dir, "r.json")
	code, out, errs := gobench(t, context.Background(), "run", "-db", "basic", "-w", "workloadb", "-p", "exporter=jsonarray", "-p", "exportfile="+file)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if out != "" {
		t.Errorf("report went to stdout with exportfile set: %q", out)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var items []map[string]any
	if err := json.Unmarshal(b, &items); err != nil {
		t.Fatalf("export is not valid JSON: %v\n%s", err, b)
	}
	if len(items) == 0 || items[0]["metric"] != "OVERALL" {
		t.Errorf("unexpected JSON items: %v", items[:1])
	}
}

func TestWorkloadsAndVersion(t *testing.T) {
	code, out, _ := gobench(t, context.Background(), "workloads")
	if code != 0 || !strings.Contains(out, "workloada") || !strings.Contains(out, "update heavy") {
		t.Errorf("workloads: exit %d, %q", code, out)
	}
	code, out, _ = gobench(t, context.Background(), "version")
	if code != 0 || !strings.HasPrefix(out, "gobench ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
}

// exporter=json writes gobench's result document, which reads back with
// the same totals; hdrhistogram.fileoutput writes an HdrHistogram log per
// measurement.
func TestResultDocumentAndHDRLogs(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, _, errs := gobench(t, context.Background(), "run", "-db", "basic", "-w", "workloada",
		"-p", "operationcount=5000", "-p", "exporter=json", "-p", "exportfile=r.json",
		"-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path=log-")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	f, err := os.Open("r.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := measure.ReadDocument(f)
	if err != nil {
		t.Fatalf("ReadDocument: %v", err)
	}
	total, err := res.Total()
	if err != nil {
		t.Fatal(err)
	}
	if total.Ops != 5000 {
		t.Errorf("result document has %d ops, want 5000", total.Ops)
	}
	read, upd := total.Lookup("READ"), total.Lookup("UPDATE")
	if read == nil || upd == nil || read.Count()+upd.Count() != 5000 {
		t.Errorf("READ+UPDATE samples in the document do not add up to 5000")
	}
	b, err := os.ReadFile("log-READ.hdr")
	if err != nil {
		t.Fatalf("no HDR log: %v", err)
	}
	if !strings.Contains(string(b), "#[Histogram log format version 1.3]") || !strings.Contains(string(b), "HISTF") {
		t.Errorf("log-READ.hdr is not an HdrHistogram log:\n%s", b)
	}
}

func TestTimeseriesReport(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out, errs := gobench(t, context.Background(), "run", "-db", "basic", "-w", "workloadc",
		"-p", "operationcount=0", "-p", "maxexecutiontime=2", "-p", "measurementtype=timeseries",
		"-p", "timeseries.granularity=500", "-target", "2000")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	windows := regexp.MustCompile(`(?m)^\[READ\], \d+, \d+(\.\d+)?(E\d+)?$`).FindAllString(out, -1)
	if len(windows) < 3 {
		t.Errorf("want several [READ], <window ms>, <avg> lines, got %d:\n%s", len(windows), out)
	}
	if strings.Contains(out, "PercentileLatency") {
		t.Errorf("timeseries blocks have no percentile lines:\n%s", out)
	}
}
