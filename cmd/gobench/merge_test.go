package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/props"
)

var insertKey = regexp.MustCompile(`(?m)^INSERT usertable (\S+) `)

// loadKeys runs a load with the basic driver printing every insert and
// returns the keys it wrote.
func loadKeys(t *testing.T, args ...string) []string {
	t.Helper()
	base := []string{"load", "-db", "basic", "-p", "basicdb.verbose=true", "-p", "recordcount=1000",
		"-p", "fieldcount=1", "-p", "fieldlength=1", "-threads", "2"}
	code, out, errs := gobench(t, context.Background(), append(base, args...)...)
	if code != exitOK {
		t.Fatalf("load %v: exit %d\n%s", args, code, errs)
	}
	var keys []string
	for _, m := range insertKey.FindAllStringSubmatch(out, -1) {
		keys = append(keys, m[1])
	}
	return keys
}

// The Kubernetes Indexed Job of deploy/kubernetes, simulated with four
// in-process clients: the load slices are disjoint and add up to exactly
// recordcount (the same keys as one client loading everything), and the
// merged run report is, count for count, the sum of the four reports, with
// percentiles of the merged histograms.
func TestFourClientsLoadDisjointAndMergeExactly(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	const n = 4
	want := map[string]bool{}
	for _, k := range loadKeys(t) {
		want[k] = true
	}
	if len(want) != 1000 {
		t.Fatalf("one client loaded %d distinct keys, want 1000", len(want))
	}
	got := map[string]int{}
	for i := 0; i < n; i++ {
		keys := loadKeys(t, "-p", "gobench.clients=4", "-p", "gobench.client="+strconv.Itoa(i))
		if len(keys) != 250 {
			t.Errorf("client %d loaded %d keys, want 250", i, len(keys))
		}
		for _, k := range keys {
			if got[k]++; got[k] == 2 {
				t.Errorf("key %s written twice (again by client %d)", k, i)
			}
			if !want[k] {
				t.Errorf("client %d wrote key %s, which is not among recordcount's keys", i, k)
			}
		}
	}
	if len(got) != len(want) {
		t.Errorf("the 4 clients loaded %d distinct keys, want %d", len(got), len(want))
	}

	// Run phase: four concurrent clients, each with its result document.
	var wg sync.WaitGroup
	files := make([]string, n)
	for i := 0; i < n; i++ {
		files[i] = filepath.Join(dir, fmt.Sprintf("r%d.json", i))
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			code, _, errs := gobench(t, context.Background(), "run", "-db", "basic", "-w", "workloada",
				"-p", "recordcount=1000", "-p", "operationcount=1500", "-threads", "2",
				"-p", "basicdb.simulatedelay=300us", "-p", "gobench.seed="+strconv.Itoa(10+i),
				"-p", "gobench.clients=4", "-p", "gobench.client="+strconv.Itoa(i),
				"-p", "exporter=json", "-p", "exportfile="+files[i])
			if code != exitOK {
				t.Errorf("run client %d: exit %d\n%s", i, code, errs)
			}
		}(i)
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	code, out, errs := gobench(t, context.Background(), append([]string{"merge", "-o", "merged.json"}, files...)...)
	if code != exitOK {
		t.Fatalf("merge: exit %d\n%s", code, errs)
	}

	// The sum of the parts, and the histograms merged by hand.
	var parts []*measure.Snapshot
	for _, f := range files {
		c, err := readResultFile(f)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, c.total)
	}
	var totalOps int64
	for _, p := range parts {
		totalOps += p.Ops
	}
	if totalOps != 4*1500 {
		t.Errorf("the parts did %d ops, want %d", totalOps, 4*1500)
	}
	for _, op := range []string{"READ", "UPDATE"} {
		var count, ok int64
		var union *measure.Series
		for _, p := range parts {
			s := p.Lookup(op)
			if s == nil || s.Count() == 0 {
				t.Fatalf("a client has no %s samples", op)
			}
			count += s.Count()
			ok += s.Codes[p.Layout.CodeIndex("OK")]
			if union == nil {
				union = &measure.Series{Hist: s.Hist.Clone()}
			} else if d := union.Hist.Merge(s.Hist); d != 0 {
				t.Fatalf("%d samples dropped merging %s", d, op)
			}
		}
		if v := value(t, out, op, "Operations"); v != strconv.FormatInt(count, 10) {
			t.Errorf("merged %s Operations = %s, want the sum of the parts %d", op, v, count)
		}
		if v := value(t, out, op, "Return=OK"); v != strconv.FormatInt(ok, 10) {
			t.Errorf("merged %s Return=OK = %s, want the sum of the parts %d", op, v, ok)
		}
		for _, p := range []float64{50, 95, 99} {
			name := fmt.Sprintf("%gthPercentileLatency(us)", p)
			if v := value(t, out, op, name); v != strconv.FormatInt(union.Percentile(p), 10) {
				t.Errorf("merged %s %s = %s, want %d from the merged histograms", op, name, v, union.Percentile(p))
			}
		}
		if v := value(t, out, op, "MaxLatency(us)"); v != strconv.FormatInt(union.Max(), 10) {
			t.Errorf("merged %s MaxLatency = %s, want %d", op, v, union.Max())
		}
	}
	if v := value(t, out, "OVERALL", "Clients"); v != "4" {
		t.Errorf("[OVERALL], Clients = %s, want 4", v)
	}
	tp, err := strconv.ParseFloat(value(t, out, "OVERALL", "Throughput(ops/sec)"), 64)
	if err != nil || tp <= 0 {
		t.Errorf("merged throughput %v (%v)", tp, err)
	}
	// The clients ran together, so the throughput is the common window's.
	var docs []*measure.Document
	for _, f := range files {
		d, err := readDocumentFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, d)
	}
	if m, err := measure.Merge(docs, files); err != nil || m.Common.Duration() < m.Union.Duration()/2 {
		t.Fatalf("the four concurrent clients overlap for %v of %v (%v): the test needs them to run together", m.Common.Duration(), m.Union.Duration(), err)
	}
	if !strings.Contains(out, "\n[OVERALL], Throughput(ops/sec), "+value(t, out, "OVERALL", "Throughput(ops/sec)")+"\n[OVERALL], Window, common\n") {
		t.Errorf("the line after Throughput is not [OVERALL], Window, common:\n%s", out)
	}
	// Per-client table: a row per client plus the merged row.
	for _, row := range []string{"0", "1", "2", "3", "all"} {
		if !regexp.MustCompile(`(?m)^\s*` + row + `\s+\d+\s+[\d.]+\s+\d+\s+\d+\s+0\s`).MatchString(out) {
			t.Errorf("no table row for client %s:\n%s", row, out)
		}
	}
	// The merged document reads back with the summed counts.
	f, err := os.Open("merged.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := measure.ReadDocument(f)
	if err != nil {
		t.Fatal(err)
	}
	tot, err := doc.Total()
	if err != nil {
		t.Fatal(err)
	}
	if tot.Ops != totalOps || doc.Config["gobench.clients"] != "4" || len(doc.Intervals) == 0 || doc.ThroughputWindow != measure.CommonWindow {
		t.Errorf("merged.json: ops %d (want %d), gobench.clients %q, %d intervals, throughput window %q (want common)", tot.Ops, totalOps, doc.Config["gobench.clients"], len(doc.Intervals), doc.ThroughputWindow)
	}
	var ivOps int64
	for _, iv := range doc.Intervals {
		ivOps += iv.Ops
	}
	if ivOps != totalOps {
		t.Errorf("merged intervals hold %d ops, want %d", ivOps, totalOps)
	}
}

// Clients run one after the other (issue 16: 100 such files printed a
// throughput of 4.8e8 ops/s, the sum of the clients' own): the merge
// reports every operation over the union of their spans, says so on the
// line after Throughput and in the merged document, and warns.
func TestMergeOfRunsApartUsesTheUnion(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	var files []string
	for i := range 3 {
		f := filepath.Join(dir, fmt.Sprintf("r%d.json", i))
		code, _, errs := gobench(t, context.Background(), "run", "-db", "basic", "-w", "workloadc",
			"-p", "recordcount=100", "-p", "operationcount=2000", "-threads", "2",
			"-p", "gobench.clients=3", "-p", "gobench.client="+strconv.Itoa(i),
			"-p", "exporter=json", "-p", "exportfile="+f)
		if code != exitOK {
			t.Fatalf("run client %d: exit %d\n%s", i, code, errs)
		}
		files = append(files, f)
	}
	code, out, errs := gobench(t, context.Background(), append([]string{"merge", "-o", "merged.json"}, files...)...)
	if code != exitOK {
		t.Fatalf("merge: exit %d\n%s", code, errs)
	}
	var ops int64
	var start, end time.Time
	for k, f := range files {
		d, err := readDocumentFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ops += d.Ops
		if k == 0 || d.Start.Before(start) {
			start = d.Start
		}
		if k == 0 || d.End.After(end) {
			end = d.End
		}
	}
	want := measure.FormatJavaDouble(float64(ops) / end.Sub(start).Seconds())
	if !strings.Contains(out, "\n[OVERALL], Throughput(ops/sec), "+want+"\n[OVERALL], Window, union\n") {
		t.Errorf("want the union throughput %d ops / %v = %s on the Throughput line and the union window on the next:\n%s", ops, end.Sub(start), want, out)
	}
	if !strings.Contains(errs, "Warning: the clients' time spans do not overlap") {
		t.Errorf("no warning that the clients did not run together:\n%s", errs)
	}
	b, err := os.ReadFile("merged.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := measure.ReadDocument(strings.NewReader(string(b)))
	if err != nil || doc.ThroughputWindow != measure.UnionWindow || measure.FormatJavaDouble(doc.Throughput) != want || len(doc.Warnings) == 0 {
		t.Errorf("merged.json: throughput %v over %q, %d warnings (%v); want %s over union and the warning", doc.Throughput, doc.ThroughputWindow, len(doc.Warnings), err, want)
	}
}

func TestAddJobIndex(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == jobIndexEnv {
				return v
			}
			return ""
		}
	}
	cases := []struct {
		env, given, want, source string
		noClients                bool
	}{
		{"", "", "", "", false},
		{"3", "", "3", jobIndexEnv, false},
		{"3", "1", "1", "-p", false},
		{"3", "", "", "", true},
	}
	for _, c := range cases {
		var l props.Layers
		if !c.noClients {
			l.Add(props.LayerFile, props.Value{Key: "gobench.clients", Value: "4", Source: "w.properties"})
		}
		if c.given != "" {
			l.Add(props.LayerOverride, props.Value{Key: "gobench.client", Value: c.given, Source: "-p"})
		}
		addJobIndex(&l, env(c.env))
		v, _, ok := l.Origin("gobench.client")
		if v.Value != c.want || v.Source != c.source || ok != (c.want != "") {
			t.Errorf("env %q, given %q, no gobench.clients %v: gobench.client=%q from %q, want %q from %q", c.env, c.given, c.noClients, v.Value, v.Source, c.want, c.source)
		}
	}
}
