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
