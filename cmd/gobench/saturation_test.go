package main

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/engine"
	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/workload"
)

func TestJudgeSaturation(t *testing.T) {
	base := satSample{Wall: 10 * time.Second, CPU: 2 * time.Second, Procs: 2, Runnable: 0.2, SchedP99: 100 * time.Microsecond}
	with := func(f func(*satSample)) satSample { s := base; f(&s); return s }
	cases := []struct {
		name string
		s    satSample
		want string // substring of the warning; "" = not saturated
	}{
		{"idle client", base, ""},
		{"CPU 90% of 2 cores", with(func(s *satSample) { s.CPU = 18 * time.Second }), "CPU at 90% of the 2 core(s)"},
		{"CPU 80%", with(func(s *satSample) { s.CPU = 16 * time.Second }), ""},
		{"CPU unknown", with(func(s *satSample) { s.CPU = -1 }), ""},
		{"one core pinned", with(func(s *satSample) { s.Procs, s.CPU = 1, 9900*time.Millisecond }), "GOMAXPROCS=1"},
		{"run queue", with(func(s *satSample) { s.Runnable = 4.5 }), "4.5 goroutines waited"},
		{"run queue below 2 per GOMAXPROCS", with(func(s *satSample) { s.Runnable = 3.5 }), ""},
		{"sched latency", with(func(s *satSample) { s.SchedP99 = 30 * time.Millisecond }), "scheduler latency p99 30ms"},
		{"sched latency of a busy machine", with(func(s *satSample) { s.SchedP99 = 12 * time.Millisecond }), ""},
		{"sched unknown", with(func(s *satSample) { s.SchedP99 = -1 }), ""},
		{"target met", with(func(s *satSample) { s.Target, s.Achieved = 1000, 995 }), ""},
		{"target missed", with(func(s *satSample) { s.Target, s.Achieved = 1000, 700 }), "-target 1000 ops/s not reached (700 ops/s)"},
		{"short window", with(func(s *satSample) { s.Wall, s.CPU, s.Runnable = 100*time.Millisecond, 200*time.Millisecond, 9 }), ""},
	}
	for _, c := range cases {
		v := judgeSaturation(c.s)
		if v.Saturated != (c.want != "") || !strings.Contains(v.String(), c.want) {
			t.Errorf("%s: judgeSaturation(%+v) = %q, want %q", c.name, c.s, v.String(), c.want)
		}
	}
}

func TestParseProcStat(t *testing.T) {
	cases := []struct {
		line string
		want time.Duration
	}{
		{"18976 (cat) R 18947 18947 10198 0 -1 4194304 122 0 0 0 250 130 0 0 20 0 1 0", 3800 * time.Millisecond},
		{"7 (a b) c)) S 1 7 7 0 -1 0 0 0 0 0 5 5 0 0 20 0 1 0", 100 * time.Millisecond},
		{"7 (short) S 1 2", -1},
		{"garbage", -1},
	}
	for _, c := range cases {
		if got := parseProcStat(c.line); got != c.want {
			t.Errorf("parseProcStat(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

func TestHistP99(t *testing.T) {
	b := []float64{0, 1e-6, 1e-3, 1e-2}
	mk := func(c ...uint64) metrics.Float64Histogram { return metrics.Float64Histogram{Counts: c, Buckets: b} }
	cases := []struct {
		a, b metrics.Float64Histogram
		want time.Duration
	}{
		{mk(5, 5, 5), mk(5, 5, 5), -1},
		{mk(0, 0, 0), mk(0, 99, 1), time.Millisecond},
		{mk(0, 0, 0), mk(0, 98, 2), 10 * time.Millisecond},
		{mk(10, 0, 0), mk(10, 100, 0), time.Millisecond},
	}
	for _, c := range cases {
		if got := histP99(c.a, c.b); got != c.want {
			t.Errorf("histP99(%v, %v) = %v, want %v", c.a.Counts, c.b.Counts, got, c.want)
		}
	}
}

// runWatched runs the basic driver with args, watched by observers fed
// from the intervals as bench feeds them, and returns what they printed,
// the final verdict and the saturation gauge scraped at the end.
func runWatched(t *testing.T, target float64, args ...string) (string, satVerdict, float64) {
	t.Helper()
	plan, _, err := prepareBench(append([]string{"-db", "basic", "-w", "workloadc", "-p", "operationcount=0", "-p", "maxexecutiontime=2"}, args...), engine.Transactions, true, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer plan.Close()
	var errb bytes.Buffer
	o, err := startObservers(target, "127.0.0.1:0", &errb)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	res, err := plan.Run(context.Background(), workload.OnInterval(500*time.Millisecond, o.Interval))
	if err != nil {
		t.Fatal(err)
	}
	v := o.Finish(res.Snapshot.Ops, res.RunTime)
	gauge, _ := metric(scrape(t, o.prom.Addr()), "gobench_client_saturated")
	t.Logf("ops %d in %v; printed:\n%s", res.Snapshot.Ops, res.RunTime, errb.String())
	return errb.String(), v, gauge
}

// Pinned to one core, the basic driver at full speed saturates the client;
// a throttled run does not.
func TestSaturationPinnedVersusThrottled(t *testing.T) {
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	const warning = "Warning: the client itself may be the bottleneck: "
	const final = "Warning: over the whole run, the client itself may be the bottleneck: "
	printed, v, gauge := runWatched(t, 0, "-threads", "4")
	if !v.Saturated || strings.Count(printed, warning) != 1 || strings.Count(printed, final) != 1 || gauge != 1 {
		t.Errorf("full speed on one core: verdict %q, gauge %v, printed %q; want saturated, gauge 1, one warning during the run and one at the end", v, gauge, printed)
	}
	printed, v, gauge = runWatched(t, 500, "-threads", "2", "-target", "500")
	if v.Saturated || strings.Contains(printed, "Warning") || gauge != 0 {
		t.Errorf("throttled to 500 ops/s: verdict %q, gauge %v, printed %q; want no warning", v, gauge, printed)
	}
}

// End to end through `gobench run`, once bench wires the observers in
// (gobench.prometheus known, startObservers called): pinned to one core at
// full speed the run warns and its result document says so; a throttled
// run does neither. Skipped while the hook is not there.
func TestSaturationThroughBench(t *testing.T) {
	t.Chdir(t.TempDir())
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	run := func(file string, args ...string) (string, *measure.Document) {
		t.Helper()
		base := []string{"run", "-db", "basic", "-w", "workloadc", "-p", "operationcount=0", "-p", "maxexecutiontime=2",
			"-p", "gobench.prometheus=127.0.0.1:0", "-p", "exporter=json", "-p", "exportfile=" + file}
		code, _, errs := gobench(t, context.Background(), append(base, args...)...)
		if code != exitOK {
			t.Fatalf("run %v: exit %d\n%s", args, code, errs)
		}
		c, err := readResultFile(file)
		if err != nil {
			t.Fatal(err)
		}
		return errs, c.doc
	}
	const warning = "Warning: the client itself may be the bottleneck"
	errs, ex := run("pinned.json", "-threads", "4")
	if !strings.Contains(errs, warning) || !ex.ClientSaturated || len(ex.Warnings) == 0 || !strings.Contains(errs, "Serving Prometheus metrics") {
		t.Errorf("pinned full speed: client_saturated %v, warnings %q, stderr:\n%s", ex.ClientSaturated, ex.Warnings, errs)
	}
	errs, ex = run("throttled.json", "-threads", "2", "-target", "500")
	if strings.Contains(errs, "may be the bottleneck") || ex.ClientSaturated || len(ex.Warnings) != 0 {
		t.Errorf("throttled: client_saturated %v, warnings %q, stderr:\n%s", ex.ClientSaturated, ex.Warnings, errs)
	}
}
