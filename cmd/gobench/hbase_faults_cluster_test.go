//go:build cluster

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobench/gobench/measure"
	"github.com/gobench/gobench/testenv/cluster"
)

// This test needs testenv's cluster (testenv/up.sh --cluster hdfs hbase;
// make test-cluster starts it): it fails, never skips, when it is down.

// failedAt reads the HDR logs of the failure series (hdrhistogram.output.path
// prefix + "<OP>-FAILED.hdr") and returns, per interval end, how many
// operations failed in it, and the total.
func failedAt(t *testing.T, prefix string) (map[time.Time]int64, int64) {
	t.Helper()
	files, _ := filepath.Glob(prefix + "*-FAILED.hdr")
	out := map[time.Time]int64{}
	var total int64
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		var base time.Time
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if rest, ok := strings.CutPrefix(line, "#[StartTime: "); ok {
				sec, _, _ := strings.Cut(rest, " ")
				v, err := strconv.ParseFloat(sec, 64)
				if err != nil {
					t.Fatalf("%s: start time %q: %v", name, line, err)
				}
				base = time.UnixMilli(int64(v * 1000))
				continue
			}
			if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "\"") || line == "" {
				continue
			}
			f := strings.Split(line, ",")
			if len(f) != 4 {
				t.Fatalf("%s: bad line %q", name, line)
			}
			start, err1 := strconv.ParseFloat(f[0], 64)
			length, err2 := strconv.ParseFloat(f[1], 64)
			h, err3 := measure.DecodeHistogram(f[3])
			if err1 != nil || err2 != nil || err3 != nil {
				t.Fatalf("%s: bad line %q: %v %v %v", name, line, err1, err2, err3)
			}
			if n := h.TotalCount(); n > 0 {
				end := base.Add(time.Duration((start + length) * float64(time.Second)))
				out[end] += n
				total += n
			}
		}
		f.Close()
	}
	return out, total
}

// Issue 11's end-to-end run on the cluster: a YCSB load of 200 000 records
// into a table pre-split into 24 regions over the 3 RegionServers, then
// workload A at 64 threads for 90 s through the CLI while the fault
// schedule runs: a region moved every 2 s, the balancer at 10 s and 50 s,
// and at 15 s one RegionServer (not meta's: meta's recovery is
// hbclient's TestClusterMetaServerKilled) SIGKILLed, started again 20 s
// later. Then every record of the load is read back.
//
// The reassignment window is from the kill until every region of the table
// is open again, plus hbase.client.operation.timeout (30 s here): an
// operation on a region of the dead server may retry that long before it
// fails. Every failure the run counts must have ended inside it (the HDR
// logs of the -FAILED series say when, per second), so moves and balancer
// runs cost no failures. The run prints its report and ends within
// maxexecutiontime plus the drain bound (10 s).
func TestClusterHBaseFaultsEndToEnd(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cl, err := cluster.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() }) // after the cleanups below, which use it
	if err := cl.Check(ctx, "hdfs", "hbase"); err != nil {
		t.Fatal(err)
	}
	h := cl.HBase()
	if err := h.WaitReady(ctx, 3, 3*time.Minute); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	table := fmt.Sprintf("gb_faults_%d", time.Now().UnixNano()%1e6)
	per, err := h.CreateTable(ctx, table, "family", 24, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		h.DropTable(ctx, table)
	})
	t.Logf("%s: 24 regions %v", table, per)
	const records, opTimeout, maxTime, drain = 200000, 30 * time.Second, 90 * time.Second, 10 * time.Second
	common := []string{"-db", "hbase", "-p", "table=" + table, "-p", "recordcount=" + strconv.Itoa(records),
		"-p", "hbase.zookeeper.quorum=" + cluster.ZooKeeperAddr, "-p", "hbase.client.operation.timeout=" + strconv.Itoa(int(opTimeout.Milliseconds()))}

	t0 := time.Now()
	code, out, errs := gobench(t, ctx, append([]string{"load", "-w", "workloada", "-threads", "64"}, common...)...)
	if code != exitOK {
		t.Fatalf("load: exit %d\n%s\n%s", code, out, errs)
	}
	if v := value(t, out, "INSERT", "Return=OK"); v != strconv.Itoa(records) {
		t.Fatalf("load: INSERT Return=OK = %s, want %d\n%s", v, records, out)
	}
	t.Logf("load of %d records: %v, %s ops/s", records, time.Since(t0).Round(time.Second), value(t, out, "OVERALL", "Throughput(ops/sec)"))

	victim := ""
	if node, _, err := h.Locate(ctx, "hbase:meta", "a"); err != nil {
		t.Fatalf("locate hbase:meta: %v", err)
	} else {
		for _, n := range []string{"hbase-rs2", "hbase-rs3", "hbase-rs1"} {
			if n != node {
				victim = n
				break
			}
		}
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if err := cl.Start(ctx, victim); err != nil {
			t.Errorf("start %s: %v", victim, err)
		}
		if err := h.WaitReady(ctx, 3, 4*time.Minute); err != nil {
			t.Errorf("cluster not ready after the test: %v", err)
		}
	})

	// The fault schedule, beside the run.
	var mu sync.Mutex
	var events []string
	note := func(at time.Time, format string, a ...any) {
		mu.Lock()
		events = append(events, fmt.Sprintf("%5.1fs ", at.Sub(t0).Seconds())+fmt.Sprintf(format, a...))
		mu.Unlock()
	}
	t0 = time.Now() // the run starts now; the schedule counts from here
	var killed, served time.Time
	var faultMu sync.Mutex
	var faultErr error
	fail := func(err error) {
		faultMu.Lock()
		faultErr = errors.Join(faultErr, err)
		faultMu.Unlock()
	}
	runDone := make(chan struct{})
	var wg sync.WaitGroup
	prefix := filepath.Join(dir, "log-")
	after := func(d time.Duration) bool { // waits until d after t0; false if the run ended first
		select {
		case <-time.After(time.Until(t0.Add(d))):
			return true
		case <-runDone:
			return false
		}
	}
	// Moves: one region to another server every 2 s (the next starts
	// when the previous is done if that took longer).
	wg.Add(3)
	go func() {
		defer wg.Done()
		for k := 1; after(time.Duration(k) * 2 * time.Second); k++ {
			mv, err := h.MoveRegions(ctx, table, 1)
			note(time.Now(), "move %v %v", mv, errOrEmpty(err))
		}
	}()
	go func() {
		defer wg.Done()
		for _, at := range []time.Duration{10 * time.Second, 50 * time.Second} {
			if !after(at) {
				return
			}
			b, err := h.Balance(ctx)
			note(time.Now(), "balance %+v %v", b, errOrEmpty(err))
		}
	}()
	// The kill at 15 s and the start 20 s later (fault.sh, not the admin
	// shell), then every region served (asked every 2 s).
	go func() {
		defer wg.Done()
		if !after(15 * time.Second) {
			return
		}
		if err := cl.Kill(ctx, victim); err != nil {
			fail(err)
			return
		}
		killed = time.Now()
		note(killed, "kill %s", victim)
		after(35 * time.Second) // (the start happens even if the run ended first)
		note(time.Now(), "start %s", victim)
		if err := cl.Start(ctx, victim); err != nil {
			fail(err)
			return
		}
		note(time.Now(), "%s ready", victim)
		for {
			regs, err := h.Regions(ctx, table)
			open := 0
			for _, r := range regs {
				if r.Node != "" {
					open++
				}
			}
			if err == nil && open == len(regs) && open > 0 {
				served = time.Now()
				note(served, "every region of %s open (%d)", table, open)
				return
			}
			select {
			case <-ctx.Done():
				fail(fmt.Errorf("regions of %s not all open: %v", table, ctx.Err()))
				return
			case <-time.After(2 * time.Second):
			}
		}
	}()

	runArgs := append([]string{"run", "-w", "workloada", "-threads", "64", "-s",
		"-p", "operationcount=0", "-p", "maxexecutiontime=" + strconv.Itoa(int(maxTime.Seconds())),
		"-p", "status.interval=1", "-p", "hdrhistogram.fileoutput=true", "-p", "hdrhistogram.output.path=" + prefix,
		"-p", "gobench.maxerrorratio=0.05"}, common...)
	runStart := t0
	code, out, errs = gobench(t, ctx, runArgs...)
	runEnd := time.Now()
	close(runDone)
	wg.Wait()
	mu.Lock()
	t.Logf("fault schedule:\n%s", strings.Join(events, "\n"))
	mu.Unlock()
	if faultErr != nil {
		t.Fatalf("fault schedule: %v", faultErr)
	}
	if code != exitOK {
		t.Errorf("run: exit %d\n%s\n%s", code, out, lastLines(errs, 30))
	}
	for _, l := range []string{"[OVERALL], RunTime(ms), ", "[OVERALL], Throughput(ops/sec), ", "[READ], Operations, ", "[UPDATE], Operations, "} {
		if !strings.Contains(out, l) {
			t.Errorf("the run's report lacks %q:\n%s", l, out)
		}
	}
	t.Logf("run: %v wall, report:\n%s\n%s", runEnd.Sub(runStart).Round(100*time.Millisecond), out, notes(errs))
	if limit := maxTime + drain + 5*time.Second; runEnd.Sub(runStart) > limit {
		t.Errorf("the run took %v; want at most maxexecutiontime %v + drain %v (+5 s to connect and report)", runEnd.Sub(runStart), maxTime, drain)
	}
	// (operations still in flight are cancelled at maxexecutiontime + drain;
	// they return within milliseconds of it)
	if ms, err := strconv.Atoi(value(t, out, "OVERALL", "RunTime(ms)")); err != nil || time.Duration(ms)*time.Millisecond > maxTime+drain+time.Second {
		t.Errorf("RunTime(ms) %d: more than maxexecutiontime %v + drain %v", ms, maxTime, drain)
	}

	// Failures: when they happened, against the reassignment window.
	if served.IsZero() {
		served = runEnd
	}
	winFrom, winTo := killed, served.Add(opTimeout)
	byEnd, total := failedAt(t, prefix)
	var reported int64
	for _, op := range []string{"READ", "UPDATE"} {
		re := regexp.MustCompile(`(?m)^\[` + op + `\], Return=(\w+), (\d+)$`)
		for _, m := range re.FindAllStringSubmatch(out, -1) {
			if m[1] != "OK" {
				n, _ := strconv.ParseInt(m[2], 10, 64)
				reported += n
			}
		}
	}
	var ends []time.Time
	for e := range byEnd {
		ends = append(ends, e)
	}
	sort.Slice(ends, func(i, j int) bool { return ends[i].Before(ends[j]) })
	var outside int64
	for _, e := range ends {
		in := !e.Before(winFrom) && !e.After(winTo.Add(time.Second))
		t.Logf("%d failed in the second ending %.1fs after the run started (window %.1f-%.1fs): %v", byEnd[e],
			e.Sub(runStart).Seconds(), winFrom.Sub(runStart).Seconds(), winTo.Sub(runStart).Seconds(), in)
		if !in {
			outside += byEnd[e]
		}
	}
	t.Logf("%d failed operations in the report, %d in the HDR logs; reassignment window %.1f-%.1fs after the start (kill to every region served + %v)",
		reported, total, winFrom.Sub(runStart).Seconds(), winTo.Sub(runStart).Seconds(), opTimeout)
	if total != reported {
		t.Errorf("the HDR logs of the failure series count %d failures, the report %d", total, reported)
	}
	if outside > 0 {
		t.Errorf("%d operations failed outside the reassignment window", outside)
	}

	// Every record of the load reads back: each key once (sequential).
	code, out, errs = gobench(t, ctx, append([]string{"run", "-w", "workloadc", "-threads", "64", "-p", "requestdistribution=sequential",
		"-p", "operationcount=" + strconv.Itoa(records)}, common...)...)
	if code != exitOK {
		t.Fatalf("read-back: exit %d\n%s\n%s", code, out, lastLines(errs, 20))
	}
	if v := value(t, out, "READ", "Return=OK"); v != strconv.Itoa(records) || strings.Contains(out, "NOT_FOUND") {
		t.Errorf("read-back of the %d loaded records: READ Return=OK = %s\n%s", records, v, out)
	}
}

func errOrEmpty(err error) string {
	if err == nil {
		return ""
	}
	return "error: " + err.Error()
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// notes returns the driver's notes (hbase: meta lookups, dials) and
// warnings from stderr.
func notes(stderr string) string {
	var l []string
	for _, s := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(s, "hbase: ") || strings.HasPrefix(s, "Warning") || strings.HasPrefix(s, "Note") {
			l = append(l, s)
		}
	}
	return strings.Join(l, "\n")
}
