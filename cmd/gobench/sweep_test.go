package main

import (
	"context"
	"html"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gobench/gobench/measure"
	rep "github.com/gobench/gobench/report"
)

func TestParseSweepArgs(t *testing.T) {
	cases := []struct {
		args    []string
		threads []int
		out     string
		rest    []string
		err     string
	}{
		{[]string{"-threads", "10,50", "-w", "workloada", "-o", "s.html"}, []int{10, 50}, "s.html", []string{"-w", "workloada"}, ""},
		{[]string{"--threads=1,2,4", "-p", "recordcount=5", "-db", "basic"}, []int{1, 2, 4}, "", []string{"-p", "recordcount=5", "-db", "basic"}, ""},
		{[]string{"-w", "workloada"}, nil, "", nil, "-threads 10,50"},
		{[]string{"-threads", "10,x"}, nil, "", nil, `"x" is not a thread count`},
		{[]string{"-threads", "0"}, nil, "", nil, `"0" is not a thread count`},
		{[]string{"-threads", "1", "-format", "gif"}, nil, "", nil, "png, svg"},
		{[]string{"-threads"}, nil, "", nil, "needs a value"},
		{[]string{"-target", "100,x"}, nil, "", nil, `"x" is not a rate`},
		{[]string{"-target", "100,200", "-threads", "2,4"}, nil, "", nil, "sweep one of them"},
	}
	for _, c := range cases {
		a, err := parseSweepArgs(c.args)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("parseSweepArgs(%q) error %v, want one containing %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(a.threads, c.threads) || a.out != c.out || !reflect.DeepEqual(a.rest, c.rest) {
			t.Errorf("parseSweepArgs(%q) = threads %v, out %q, rest %q, %v; want %v, %q, %q", c.args, a.threads, a.out, a.rest, err, c.threads, c.out, c.rest)
		}
	}
}

var sweepRow = regexp.MustCompile(`(?m)^\s*(\d+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*(<- knee)?\s*(\(client saturated\))?\s*$`)

// A sweep on the embedded default (pebble): the table has a row per step,
// the knee mark agrees with report.Knee on the printed figures, and the
// HTML report has the sweep plots.
func TestSweepOnPebble(t *testing.T) {
	t.Chdir(t.TempDir())
	ctx := context.Background()
	if code, _, errs := gobench(t, ctx, "load", "-w", "workloada", "-p", "recordcount=2000", "-threads", "2"); code != exitOK {
		t.Fatalf("load: exit %d\n%s", code, errs)
	}
	code, out, errs := gobench(t, ctx, "sweep", "-threads", "1,2,4", "-w", "workloada", "-p", "recordcount=2000",
		"-p", "operationcount=3000", "-o", "sweep.html", "-keep", "steps")
	if code != exitOK {
		t.Fatalf("sweep: exit %d\n%s", code, errs)
	}
	rows := sweepRow.FindAllStringSubmatch(out, -1)
	if len(rows) != 3 {
		t.Fatalf("%d table rows, want 3:\n%s", len(rows), out)
	}
	var steps []rep.SweepStep
	marked := -1
	for i, r := range rows {
		th, _ := strconv.Atoi(r[1])
		tp, _ := strconv.ParseFloat(r[2], 64)
		p99, _ := strconv.ParseInt(r[4], 10, 64)
		if want := []int{1, 2, 4}[i]; th != want || tp <= 0 || r[6] != "0" {
			t.Errorf("row %d: threads %d (want %d), ops/s %v, errors %s", i, th, want, tp, r[6])
		}
		steps = append(steps, rep.SweepStep{Threads: th, Throughput: tp, Summary: rep.Summary{P99: p99}})
		if r[7] != "" {
			marked = i
		}
	}
	if k := rep.Knee(steps); k != marked {
		t.Errorf("the table marks step %d as the knee, report.Knee says %d:\n%s", marked, k, out)
	}
	if !strings.Contains(out, "Knee at ") && !strings.Contains(out, "No knee") {
		t.Errorf("no knee line:\n%s", out)
	}
	b, err := os.ReadFile("sweep.html")
	if err != nil {
		t.Fatal(err)
	}
	page := html.UnescapeString(string(b))
	for _, want := range []string{"Throughput by threads", "p99 latency by threads", "<td>4</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("sweep.html lacks %q", want)
		}
	}
	if n := strings.Count(page, "data:image/svg+xml;base64,"); n < 3 {
		t.Errorf("sweep.html embeds %d images, want at least 3", n)
	}
	for _, n := range []string{"1", "2", "4"} {
		if _, err := os.Stat("steps/threads-" + n + ".json"); err != nil {
			t.Errorf("-keep: %v", err)
		}
	}
}

// A rate sweep (issue 14): one step per -target, open loops on the basic
// driver whose 2 threads serve at most 400 ops/s (5 ms per operation), so
// the highest rate queues: its p99 (from arrival) is far above the
// lowest's, and the table and the page show its queue and late starts.
func TestSweepByTarget(t *testing.T) {
	t.Chdir(t.TempDir())
	code, out, errs := gobench(t, context.Background(), "sweep", "-target", "100,200,2000", "-threads", "2", "-db", "basic",
		"-w", "workloada", "-p", "operationcount=200", "-p", "gobench.arrival=constant", "-p", "basicdb.simulatedelay=5",
		"-p", "basicdb.randomizedelay=false", "-keep", "steps", "-o", "sweep.html")
	if code != exitOK {
		t.Fatalf("sweep: exit %d\n%s", code, errs)
	}
	// target, ops/s, achieved, peak queue, late, p50, p99, p99.9, errors
	rows := openSweepRow.FindAllStringSubmatch(out, -1)
	if len(rows) != 3 || !strings.Contains(out, "target") || !strings.Contains(out, "peakqueue") {
		t.Fatalf("%d table rows, want 3 by target with the queue columns:\n%s", len(rows), out)
	}
	for i, want := range []string{"100", "200", "2000"} {
		if rows[i][1] != want {
			t.Errorf("row %d: target %s, want %s", i, rows[i][1], want)
		}
	}
	num := func(row, col int) float64 {
		v, _ := strconv.ParseFloat(rows[row][col], 64)
		return v
	}
	// The lower steps are compared by their smaller figure: on a loaded
	// machine one of them may stall for tens of milliseconds.
	if low, high := min(num(0, 7), num(1, 7)), num(2, 7); high < 10*low {
		t.Errorf("p99 %v us at 100 or 200 ops/s, %v us at 2000: want the overloaded step queued\n%s", low, high, out)
	}
	if achieved, queue, late := num(2, 3), num(2, 4), num(2, 5); achieved > 450 || queue < 10*min(num(0, 4), num(1, 4)) || queue < 50 || late < 100 {
		t.Errorf("at 2000 ops/s: achieved %v, peak queue %v, late %v; want about 400, a standing queue and most of 200 late\n%s", achieved, queue, late, out)
	}
	if achieved := num(0, 3); achieved < 90 {
		t.Errorf("at 100 ops/s: achieved %v; want the offered rate\n%s", achieved, out)
	}
	// The kept result document holds the same open-loop figures and the
	// warning about the short rate.
	fh, err := os.Open("steps/target-2000.json")
	if err != nil {
		t.Fatalf("-keep: %v", err)
	}
	kept, err := measure.ReadDocument(fh)
	fh.Close()
	if err != nil {
		t.Fatal(err)
	}
	if ol := kept.OpenLoop; ol == nil || ol.Arrival != "constant" || ol.Offered != 2000 || float64(ol.PeakQueue) != num(2, 4) || float64(ol.Late) != num(2, 5) || ol.Started != 200 {
		t.Errorf("target-2000.json open_loop %+v; want the table's row %v", ol, rows[2][1:])
	}
	if !strings.Contains(strings.Join(kept.Warnings, "\n"), "open loop: achieved") {
		t.Errorf("target-2000.json warnings %q; want the short rate's", kept.Warnings)
	}
	b, err := os.ReadFile("sweep.html")
	if err != nil {
		t.Fatal(err)
	}
	page := html.UnescapeString(string(b))
	for _, want := range []string{"<th>peak queue</th>", "<td>2000</td>", "open loop: achieved"} {
		if !strings.Contains(page, want) {
			t.Errorf("sweep.html lacks %q", want)
		}
	}
}

var openSweepRow = regexp.MustCompile(`(?m)^\s*(\d+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*(<- knee)?\s*(\(client saturated\))?\s*$`)
